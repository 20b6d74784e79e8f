// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CPULSEAUDIO_SHIM_H
#define RAUDIO_CPULSEAUDIO_SHIM_H
// One module for both libpulse and libpulse-simple: two modules including the same pulse headers made
// constants such as PA_SAMPLE_S16LE vanish depending on import order (shared/docs/LINUX-INTEROP.md).
#include <pulse/pulseaudio.h>
#include <pulse/simple.h>
#endif
