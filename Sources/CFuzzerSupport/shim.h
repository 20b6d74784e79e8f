// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CFUZZERSUPPORT_SHIM_H
#define RAUDIO_CFUZZERSUPPORT_SHIM_H
// Header only: libFuzzer's entry point, defined by the runtime that `-sanitize=fuzzer` links in.
// SwiftPM gives an executable target its own `main`, so raudio-fuzz's main.swift calls the driver
// itself (see ../shared/docs/LINUX-INTEROP.md, "Tests, sanitizers, fuzzing").
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
