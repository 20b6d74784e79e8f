// SPDX-License-Identifier: GPL-3.0-or-later
#include "lazy_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* One lock for every lazy library: taken only by the first calls, while one of them loads. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

/* dlopen and dlsym every function; on failure closes the handle and sets `error`. Under `load_lock`. */
static void load(raudio_lazy_library *library) {
    dlerror();
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(library->message, sizeof library->message,
                 "%s could not be loaded (%s); install the Debian package %s (make deps)",
                 library->soname, reason != NULL ? reason : "not found", library->package);
        library->error = library->message;
        return;
    }
    for (size_t index = 0; index < library->count; index++) {
        dlerror();
        void *symbol = dlsym(handle, library->names[index]);
        if (symbol == NULL) {
            const char *reason = dlerror();
            snprintf(library->message, sizeof library->message,
                     "%s has no function %s (%s): not the version raudio was built for; reinstall the Debian package %s",
                     library->soname, library->names[index], reason != NULL ? reason : "null symbol", library->package);
            library->error = library->message;
            dlclose(handle);
            return;
        }
        library->symbols[index] = symbol;
    }
    library->error = NULL;
}

const char *raudio_lazy_library_error(raudio_lazy_library *library) {
    if (!__atomic_load_n(&library->attempted, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&load_lock);
        if (!__atomic_load_n(&library->attempted, __ATOMIC_RELAXED)) {
            load(library);
            __atomic_store_n(&library->attempted, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&load_lock);
    }
    return library->error;
}

void *raudio_lazy_library_symbol(raudio_lazy_library *library, size_t index) {
    const char *error = raudio_lazy_library_error(library);
    if (error != NULL) {
        fprintf(stderr, "raudio: %s\n", error);
        abort();
    }
    return library->symbols[index];
}
