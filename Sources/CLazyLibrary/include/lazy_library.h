// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_LAZY_LIBRARY_H
#define RAUDIO_LAZY_LIBRARY_H
#include <stddef.h>

/* A shared library raudio loads with dlopen the first time one of its functions is needed, instead of
   linking it (which made the dynamic loader map and relocate it, and everything it needs, in every
   process at start). The C targets CESpeakNG, CPulseAudio and CSystemdBus each define the functions
   raudio calls, with the library's own names and signatures but hidden visibility, and forward each
   call through the pointer `raudio_lazy_library_symbol` looked up once; Swift call sites are those of
   a linked library. Swift asks `raudio_lazy_library_error` where a library is first used, so that a
   missing or broken library is an error with a message, not a crash. Any thread. */
typedef struct raudio_lazy_library {
    /* What dlopen is given ("libpulse.so.0"), and the Debian package holding it, for messages. */
    const char *soname;
    const char *package;
    /* The functions looked up with dlsym, and where their addresses go: `count` of each. */
    const char *const *names;
    void **symbols;
    size_t count;
    /* 0 until the first load attempt finished (read and written with atomics); then `error` is NULL
       when every function was found, or points to `message`. */
    int attempted;
    const char *error;
    char message[640];
} raudio_lazy_library;

/* Loads `library` once (later calls return at once): NULL when it is usable, else why not, naming the
   shared object ("libpulse.so.0 could not be loaded (...); install the Debian package libpulse0"). */
const char *raudio_lazy_library_error(raudio_lazy_library *library);

/* The function at `index` of `library->names`, loading the library first if needed. A library that
   cannot be loaded ends the process with its message on stderr: callers check the error first. */
void *raudio_lazy_library_symbol(raudio_lazy_library *library, size_t index);

/* The table and error function of one library, in its loader file, after `#define FUNCTIONS(X)` lists
   every function raudio calls as `X(name)`: defines `const char *error_function(void)` (NULL when the
   library is usable, else why not). Each forwarder is then `RAUDIO_FORWARD` with the library's own
   signature, its body `return RAUDIO_CALL(name)(arguments);`. */
#define RAUDIO_LAZY_INDEX(name) raudio_index_##name,
#define RAUDIO_LAZY_NAME(name) #name,
#define RAUDIO_LAZY_LIBRARY(soname_, package_, error_function) \
    enum { FUNCTIONS(RAUDIO_LAZY_INDEX) raudio_function_count }; \
    static const char *const raudio_function_names[] = { FUNCTIONS(RAUDIO_LAZY_NAME) }; \
    static void *raudio_function_symbols[raudio_function_count]; \
    static raudio_lazy_library raudio_library = { \
        .soname = soname_, .package = package_, .names = raudio_function_names, \
        .symbols = raudio_function_symbols, .count = raudio_function_count, \
    }; \
    const char *error_function(void) { return raudio_lazy_library_error(&raudio_library); }

/* Hidden: SwiftPM links the executable with --export-dynamic, and an exported function of the same name
   as one of the library's would be bound in place of the library's own for its internal calls. */
#define RAUDIO_FORWARD __attribute__((visibility("hidden")))
#define RAUDIO_CALL(name) ((__typeof__(&name))raudio_lazy_library_symbol(&raudio_library, raudio_index_##name))

#endif
