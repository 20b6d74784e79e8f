#ifndef RAUDIO_CSOXR_SHIM_H
#define RAUDIO_CSOXR_SHIM_H
#include <soxr.h>
#endif
