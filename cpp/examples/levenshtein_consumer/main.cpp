// Levenshtein distances and D2KE string features from C++.
//   levenshtein_consumer kitten sitting   -> prints 3

#include <pyd2ke/pyd2ke.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    const std::string a = argc > 1 ? argv[1] : "kitten";
    const std::string b = argc > 2 ? argv[2] : "sitting";
    std::printf("levenshtein(%s, %s) = %zu\n", a.c_str(), b.c_str(), pyd2ke::levenshtein(a, b));

    // Soft D2KE features of two strings against three random strings.
    const std::vector<std::string> random_strings{"ACG", "TTAG", "G"};
    const std::vector<std::string> texts{"ACGTACGT", "GGGG"};
    const pyd2ke::LevenshteinBatch batch(std::vector<pyd2ke::TextView>(random_strings.begin(), random_strings.end()));
    std::vector<double> features(texts.size() * batch.size());
    pyd2ke::d2ke_features(batch, std::vector<pyd2ke::TextView>(texts.begin(), texts.end()), 0.5,
                          pyd2ke::D2KEKernel::soft, features.data(), 2);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        std::printf("features(%s) =", texts[i].c_str());
        for (std::size_t j = 0; j < batch.size(); ++j) std::printf(" %.6f", features[i * batch.size() + j]);
        std::printf("\n");
    }
    std::printf("pyd2ke %s, SIMD %s, OpenMP %s\n", PYD2KE_VERSION_STRING,
                pyd2ke::simd_level_name(pyd2ke::detect_simd_level()), pyd2ke::has_openmp() ? "on" : "off");
    return 0;
}
