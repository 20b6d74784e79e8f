#ifndef RAUDIO_CMPG123_SHIM_H
#define RAUDIO_CMPG123_SHIM_H
#include <mpg123.h>
#endif
