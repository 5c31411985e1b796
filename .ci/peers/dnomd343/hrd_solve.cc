// Minimal driver for dnomd343/klotski FastCal: hrd-solve COMMONCODE_HEX
// Prints the number of moves (path length - 1) of the solution FastCal::solve() finds.
#include <cstdio>
#include <cstdlib>
#include <cstdint>

#include "common_code/common_code.h"
#include "fast_cal/fast_cal.h"

using klotski::codec::CommonCode;
using klotski::fast_cal::FastCal;

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s COMMONCODE_HEX\n", argv[0]);
        return 2;
    }
    char *end = nullptr;
    const uint64_t value = std::strtoull(argv[1], &end, 16);
    if (end == argv[1] || *end != '\0') {
        std::fprintf(stderr, "invalid hex CommonCode: %s\n", argv[1]);
        return 2;
    }
    const auto common = CommonCode::create(value);
    if (!common.has_value()) {
        std::fprintf(stderr, "invalid CommonCode: %s\n", argv[1]);
        return 2;
    }
    FastCal fc {common->to_raw_code()};
    const auto solution = fc.solve();
    if (!solution.has_value()) {
        std::puts("no solution");
        return 1;
    }
    const auto path = fc.backtrack(*solution);
    std::printf("%zu\n", path.size() - 1);
    return 0;
}
