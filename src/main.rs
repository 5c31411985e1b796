fn main() {
    // Like other Unix tools, die quietly when the reader of our output goes
    // away (`boardbot … | head`), instead of failing on a broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE at start-up,
    // before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    boardbot::solve::memory::map_large_allocations();
    std::process::exit(boardbot::cli::main());
}
