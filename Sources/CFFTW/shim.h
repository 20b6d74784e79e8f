// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CFFTW_SHIM_H
#define RAUDIO_CFFTW_SHIM_H
#include <fftw3.h>
#endif
