// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CPULSEAUDIO_SHIM_H
#define RAUDIO_CPULSEAUDIO_SHIM_H
// libpulse's asynchronous API with the threaded mainloop (libpulse-simple is not used). One module only:
// two modules including the same pulse headers made constants such as PA_SAMPLE_S16LE vanish depending
// on import order (shared/docs/LINUX-INTEROP.md).
#include <pulse/pulseaudio.h>
// libpulse is not linked but loaded with dlopen on first use; the functions raudio calls are defined in this
// target and forward to it. NULL when libpulse.so.0 is loaded, else why it could not be (naming the file): call
// it where a PulseAudio sink first connects, before any other function of the library. Any thread.
const char *raudio_pulse_load_error(void);
#endif
