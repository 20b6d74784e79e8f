// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CEBUR128_SHIM_H
#define RAUDIO_CEBUR128_SHIM_H
// libebur128 (Debian libebur128-dev): EBU R 128 loudness, for --normalize.
#include <ebur128.h>
#endif
