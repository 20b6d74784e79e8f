// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CESPEAKNG_SHIM_H
#define RAUDIO_CESPEAKNG_SHIM_H
#include <espeak-ng/speak_lib.h>
#endif
