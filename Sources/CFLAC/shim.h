// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CFLAC_SHIM_H
#define RAUDIO_CFLAC_SHIM_H
// libFLAC's stream decoder (Debian's libflac-dev, libFLAC 1.4): native FLAC files.
#include <FLAC/stream_decoder.h>
// The version string is a global variable, which Swift 6 refuses to read without isolation.
static inline const char *raudio_flac_version(void) { return FLAC__VERSION_STRING; }
#endif
