#ifndef ROMDEV_CGPIOD_SHIM_H
#define ROMDEV_CGPIOD_SHIM_H
#include <gpiod.h>
// One small API over libgpiod v1.6 and v2.x; see GPIO/ for the Swift side.
#endif
