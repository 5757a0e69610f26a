// Probe of Basalt's own header (found through the include/ directory).
#undef NDEBUG  // the header declares the mutex ownership checks only then
#include "sqlite3.h"

#include "sqlite3_api_probe.h"

#define BASALT_PROBE_NAME DescribeBasaltHeader
#include "sqlite3_api_probe_body.inc"
