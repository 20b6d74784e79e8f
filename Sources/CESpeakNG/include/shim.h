// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CESPEAKNG_SHIM_H
#define RAUDIO_CESPEAKNG_SHIM_H
#include <espeak-ng/speak_lib.h>
// libespeak-ng is not linked but loaded with dlopen on first use; the functions raudio calls are defined in this
// target and forward to it. NULL when libespeak-ng.so.1 is loaded, else why it could not be (naming the file): call
// it where eSpeak NG is first started, before any other function of the library. Any thread.
const char *raudio_espeak_load_error(void);
#endif
