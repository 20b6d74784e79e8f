// SPDX-License-Identifier: GPL-3.0-or-later
// libespeak-ng, loaded with dlopen when raudio first speaks or lists voices: linked, it and the 33
// libraries it needs (its audio output libpcaudio with ALSA and PulseAudio, libsndfile) were mapped and
// relocated by every process, a book of recorded audio included. See lazy_library.h.
#include "shim.h"
#include <lazy_library.h>

#define SONAME "libespeak-ng.so.1"

/* Every function of the library raudio calls, in alphabetical order. */
#define FUNCTIONS(X) \
    X(espeak_Info) \
    X(espeak_Initialize) \
    X(espeak_ListVoices) \
    X(espeak_SetParameter) \
    X(espeak_SetSynthCallback) \
    X(espeak_SetVoiceByName) \
    X(espeak_Synth)

#define INDEX(name) index_##name,
#define NAME(name) #name,
enum { FUNCTIONS(INDEX) function_count };
static const char *const names[] = { FUNCTIONS(NAME) };
static void *symbols[function_count];
static raudio_lazy_library library = {
    .soname = SONAME, .package = "libespeak-ng1", .names = names, .symbols = symbols, .count = function_count,
};

const char *raudio_espeak_load_error(void) { return raudio_lazy_library_error(&library); }

/* Hidden: SwiftPM links the executable with --export-dynamic, and an exported function of the same name
   as one of the library's would be bound in place of the library's own for its internal calls. */
#define RAUDIO_FORWARD __attribute__((visibility("hidden")))
#define CALL(name) ((__typeof__(&name))raudio_lazy_library_symbol(&library, index_##name))

RAUDIO_FORWARD int espeak_Initialize(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options) {
    return CALL(espeak_Initialize)(output, buflength, path, options);
}

RAUDIO_FORWARD void espeak_SetSynthCallback(t_espeak_callback *SynthCallback) {
    CALL(espeak_SetSynthCallback)(SynthCallback);
}

RAUDIO_FORWARD espeak_ERROR espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type, unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data) {
    return CALL(espeak_Synth)(text, size, position, position_type, end_position, flags, unique_identifier, user_data);
}

RAUDIO_FORWARD espeak_ERROR espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative) {
    return CALL(espeak_SetParameter)(parameter, value, relative);
}

RAUDIO_FORWARD const espeak_VOICE **espeak_ListVoices(espeak_VOICE *voice_spec) {
    return CALL(espeak_ListVoices)(voice_spec);
}

RAUDIO_FORWARD espeak_ERROR espeak_SetVoiceByName(const char *name) {
    return CALL(espeak_SetVoiceByName)(name);
}

RAUDIO_FORWARD const char *espeak_Info(const char **path_data) {
    return CALL(espeak_Info)(path_data);
}

