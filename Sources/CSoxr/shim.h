// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CSOXR_SHIM_H
#define RAUDIO_CSOXR_SHIM_H
#include <soxr.h>
#endif
