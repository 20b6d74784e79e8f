// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CMPG123_SHIM_H
#define RAUDIO_CMPG123_SHIM_H
#include <mpg123.h>
#endif
