#pragma once
// Umbrella header: everything the pyd2ke core offers.

#include "version.hpp"
#include "core/config.hpp"
#include "core/cpu_features.hpp"
#include "core/parallel.hpp"
#include "core/series.hpp"
#include "core/text.hpp"
#include "core/point_set.hpp"
#include "distance/dtw.hpp"
#include "distance/hausdorff.hpp"
#include "distance/levenshtein.hpp"
#include "embed/d2ke.hpp"
#include "features/maclaurin.hpp"
#include "features/hashed_fourier.hpp"
#include "sketch/cgk.hpp"
#include "sketch/esp.hpp"
