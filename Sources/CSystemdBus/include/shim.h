// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CSYSTEMDBUS_SHIM_H
#define RAUDIO_CSYSTEMDBUS_SHIM_H
// sd-bus, libsystemd's D-Bus client, for the MPRIS server (RAudioEngine/DBus). Only its non-variadic
// functions import into Swift: messages are built with sd_bus_message_append_basic and containers, read
// with sd_bus_message_read_basic, and objects are served with sd_bus_add_object (vtable macros do not import).
#include <systemd/sd-bus.h>
// libsystemd is not linked but loaded with dlopen on first use; the functions raudio calls are defined in this
// target and forward to it. NULL when libsystemd.so.0 is loaded, else why it could not be (naming the file): call
// it where a session bus is first opened, before any other function of the library. Any thread.
const char *raudio_systemd_load_error(void);
#endif
