// Built by tests/test_cpp.py with each C++ compiler it finds, as a user's
// program is: default flags (no -march), the headers as system headers with
// g++ -Werror, and with clang's sanitizers. It exercises the templates that
// met a compiler's limits: hashed Fourier weights of vector types (clang
// refused them, g++ warned of their ABI in this file), Levenshtein lane
// groups of several cache lines (indexed past one line's bytes: clang's UBSan),
// CGK walks of plain, signed char, and string literals (ambiguous before).
#include <pyd2ke/pyd2ke.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

int main() {
    int failures = 0;
    for (auto kernel : {pyd2ke::FourierKernel::rbf, pyd2ke::FourierKernel::laplacian}) {
        const pyd2ke::HashedRandomFourier map(kernel, 0.5, 10, 7);
        const std::vector<double> x{1.0, -2.0, 0.5};
        std::vector<double> z(10);
        map.transform_dense(x.data(), 1, x.size(), z.data());
        for (double v : z) failures += !std::isfinite(v);
    }
    std::vector<std::string> patterns;
    for (std::size_t n : {1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 128}) patterns.push_back(std::string(n, 'a') + "xy");
    const pyd2ke::LevenshteinBatch batch(std::vector<pyd2ke::TextView>(patterns.begin(), patterns.end()));
    const std::string text = "aaaaaaaaxy";
    std::vector<double> d(patterns.size());
    batch.distances(pyd2ke::TextView(text), d.data());
    for (std::size_t j = 0; j < patterns.size(); ++j)
        failures += d[j] != pyd2ke::levenshtein(std::string_view(patterns[j]), std::string_view(text));
    // String literals, as a user first writes them.
    failures += pyd2ke::levenshtein("kitten", "sitting") != 3 || pyd2ke::levenshtein(U"\u00e9t\u00e9", u"ete") != 2;
    const pyd2ke::LevenshteinBatch literals(std::vector<pyd2ke::TextView>{"ACG", "TT"});
    failures += literals.size() != 2;
    const std::string bytes = "a\xe9\xff";
    std::vector<std::uint32_t> walk(9);
    pyd2ke::cgk_embed(bytes.data(), bytes.size(), 3, walk.size(), walk.data());
    for (std::uint32_t symbol : walk) failures += symbol != 'a' && symbol != 0xe9 && symbol != 0xff && symbol != pyd2ke::kCgkPad;
    std::printf("%s\n", failures ? "FAILED" : "all checks passed");
    return failures != 0;
}
