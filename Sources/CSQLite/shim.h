// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CSQLITE_SHIM_H
#define RAUDIO_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a destructor pointer, a macro Swift cannot import: text and
   blobs bound with it are copied by SQLite before sqlite3_bind_* returns. */
static inline sqlite3_destructor_type raudio_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
