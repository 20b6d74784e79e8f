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
    X(espeak_SetPhonemeTrace) \
    X(espeak_SetSynthCallback) \
    X(espeak_SetVoiceByName) \
    X(espeak_Synth)

RAUDIO_LAZY_LIBRARY(SONAME, "libespeak-ng1", raudio_espeak_load_error)

RAUDIO_FORWARD int espeak_Initialize(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options) {
    return RAUDIO_CALL(espeak_Initialize)(output, buflength, path, options);
}

RAUDIO_FORWARD void espeak_SetSynthCallback(t_espeak_callback *SynthCallback) {
    RAUDIO_CALL(espeak_SetSynthCallback)(SynthCallback);
}

RAUDIO_FORWARD espeak_ERROR espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type, unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data) {
    return RAUDIO_CALL(espeak_Synth)(text, size, position, position_type, end_position, flags, unique_identifier, user_data);
}

RAUDIO_FORWARD espeak_ERROR espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative) {
    return RAUDIO_CALL(espeak_SetParameter)(parameter, value, relative);
}

RAUDIO_FORWARD void espeak_SetPhonemeTrace(int phonememode, FILE *stream) {
    RAUDIO_CALL(espeak_SetPhonemeTrace)(phonememode, stream);
}

RAUDIO_FORWARD const espeak_VOICE **espeak_ListVoices(espeak_VOICE *voice_spec) {
    return RAUDIO_CALL(espeak_ListVoices)(voice_spec);
}

RAUDIO_FORWARD espeak_ERROR espeak_SetVoiceByName(const char *name) {
    return RAUDIO_CALL(espeak_SetVoiceByName)(name);
}

RAUDIO_FORWARD const char *espeak_Info(const char **path_data) {
    return RAUDIO_CALL(espeak_Info)(path_data);
}

