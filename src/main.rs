fn main() {
    std::process::exit(boardbot::cli::main());
}
