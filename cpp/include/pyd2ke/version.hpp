#pragma once
// Version of the header-only core; kept in step with pyproject.toml by CMake.
#define PYD2KE_VERSION_MAJOR 0
#define PYD2KE_VERSION_MINOR 1
#define PYD2KE_VERSION_PATCH 0
#define PYD2KE_VERSION_STRING "0.1.0"
