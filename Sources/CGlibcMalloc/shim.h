// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CGLIBCMALLOC_SHIM_H
#define RAUDIO_CGLIBCMALLOC_SHIM_H
// glibc's allocator controls (mallopt, malloc_trim, mallinfo2): <malloc.h> is not part of the
// Glibc module Swift imports, so it gets its own system module (no library to link: it is libc).
#include <malloc.h>
#endif
