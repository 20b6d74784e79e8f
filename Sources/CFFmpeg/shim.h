// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CFFMPEG_SHIM_H
#define RAUDIO_CFFMPEG_SHIM_H
// FFmpeg's demuxers and decoders (Debian's libavformat, libavcodec, libavutil; FFmpeg 5.1 on Debian 12).
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/samplefmt.h>

// Swift imports no function-like macro: these give AVERROR(...), AVERROR_EOF and AV_NOPTS_VALUE values.
static inline int raudio_av_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int raudio_av_error_eof(void) { return AVERROR_EOF; }
static inline int raudio_av_error_eio(void) { return AVERROR(EIO); }
static inline int raudio_av_error_enomem(void) { return AVERROR(ENOMEM); }
static inline int64_t raudio_av_nopts_value(void) { return AV_NOPTS_VALUE; }
#endif
