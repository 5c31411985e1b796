// Force-included (-include) compatibility prelude for building dnomd343/klotski
// (written for clang-18 + libc++-18, C++23) with Debian 12's clang-14 + libc++-14.
// Touches only library availability, not code generation of the solver:
//  * Debian's libc++-14 __config_site hides the (incomplete) <format> and <ranges>
//    implementations; klotski's headers use std::format (only in to-string / operator<<
//    helpers the driver never calls) and std::views::reverse. Re-enable them.
//  * libc++-14 has no std::unreachable (C++23, libc++-15); provide it as __builtin_unreachable.
#pragma once
#if defined(__cplusplus) && __cplusplus > 202002L  // only for the C++2b sources
#include <__config>
#undef _LIBCPP_HAS_NO_INCOMPLETE_FORMAT
#undef _LIBCPP_HAS_NO_INCOMPLETE_RANGES
#include <array>
#include <format>
#include <ranges>
#include <utility>
#if !defined(__cpp_lib_unreachable)
namespace std {
[[noreturn]] inline void unreachable() { __builtin_unreachable(); }
}
#endif
// libc++-14 has no std::ranges::to (C++23, libc++-17); klotski uses only the
// `range | std::ranges::to<std::vector>()` form (GroupUnion::groups, group.cc),
// neither of which is on FastCal's search path. Minimal equivalent:
#if !defined(__cpp_lib_ranges_to_container)
namespace std::ranges {
template <template <class...> class C> struct __klsk_to_closure {};
template <template <class...> class C> constexpr __klsk_to_closure<C> to() { return {}; }
template <class R, template <class...> class C>
    requires input_range<R>
auto operator|(R &&r, __klsk_to_closure<C>) {
    C<range_value_t<R>> out;
    if constexpr (sized_range<R>) { out.reserve(ranges::size(r)); }
    for (auto &&x : r) { out.push_back(static_cast<decltype(x)>(x)); }
    return out;
}
} // namespace std::ranges
#endif
#endif // C++2b
