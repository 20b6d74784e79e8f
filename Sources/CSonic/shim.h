// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CSONIC_SHIM_H
#define RAUDIO_CSONIC_SHIM_H
// Debian's libsonic-dev ships no pkg-config file; the header is in the default include path.
#include <sonic.h>
#endif
