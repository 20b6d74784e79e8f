// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CVORBISFILE_SHIM_H
#define RAUDIO_CVORBISFILE_SHIM_H
// The header's static OV_CALLBACKS_* variables fail Swift 6 strict concurrency: we build ov_callbacks ourselves.
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <vorbis/vorbisfile.h>
#endif
