#ifndef RAUDIO_CESPEAKNG_SHIM_H
#define RAUDIO_CESPEAKNG_SHIM_H
#include <espeak-ng/speak_lib.h>
#endif
