// SPDX-License-Identifier: GPL-3.0-or-later
// libpulse, loaded with dlopen when raudio first plays to PulseAudio (--output pulse) or `raudio version`
// asks its version: linked, it and the 28 libraries it needs (libsndfile and its codecs, X11, D-Bus,
// libsystemd) were mapped and relocated by every process. See lazy_library.h.
#include "shim.h"
#include <lazy_library.h>

#define SONAME "libpulse.so.0"

/* Every function of the library raudio calls, in alphabetical order. */
#define FUNCTIONS(X) \
    X(pa_context_connect) \
    X(pa_context_disconnect) \
    X(pa_context_errno) \
    X(pa_context_get_state) \
    X(pa_context_new_with_proplist) \
    X(pa_context_rttime_new) \
    X(pa_context_rttime_restart) \
    X(pa_context_set_state_callback) \
    X(pa_context_unref) \
    X(pa_get_library_version) \
    X(pa_operation_get_state) \
    X(pa_operation_unref) \
    X(pa_proplist_free) \
    X(pa_proplist_new) \
    X(pa_proplist_sets) \
    X(pa_rtclock_now) \
    X(pa_stream_connect_playback) \
    X(pa_stream_cork) \
    X(pa_stream_disconnect) \
    X(pa_stream_drain) \
    X(pa_stream_flush) \
    X(pa_stream_get_buffer_attr) \
    X(pa_stream_get_latency) \
    X(pa_stream_get_state) \
    X(pa_stream_get_timing_info) \
    X(pa_stream_new_with_proplist) \
    X(pa_stream_set_state_callback) \
    X(pa_stream_set_write_callback) \
    X(pa_stream_unref) \
    X(pa_stream_update_timing_info) \
    X(pa_stream_writable_size) \
    X(pa_stream_write) \
    X(pa_strerror) \
    X(pa_threaded_mainloop_free) \
    X(pa_threaded_mainloop_get_api) \
    X(pa_threaded_mainloop_lock) \
    X(pa_threaded_mainloop_new) \
    X(pa_threaded_mainloop_signal) \
    X(pa_threaded_mainloop_start) \
    X(pa_threaded_mainloop_stop) \
    X(pa_threaded_mainloop_unlock) \
    X(pa_threaded_mainloop_wait) \
    X(pa_usec_to_bytes)

RAUDIO_LAZY_LIBRARY(SONAME, "libpulse0", raudio_pulse_load_error)

RAUDIO_FORWARD int pa_context_connect(pa_context *c, const char *server, pa_context_flags_t flags, const pa_spawn_api *api) {
    return RAUDIO_CALL(pa_context_connect)(c, server, flags, api);
}

RAUDIO_FORWARD void pa_context_disconnect(pa_context *c) {
    RAUDIO_CALL(pa_context_disconnect)(c);
}

RAUDIO_FORWARD int pa_context_errno(const pa_context *c) {
    return RAUDIO_CALL(pa_context_errno)(c);
}

RAUDIO_FORWARD pa_context_state_t pa_context_get_state(const pa_context *c) {
    return RAUDIO_CALL(pa_context_get_state)(c);
}

RAUDIO_FORWARD pa_context *pa_context_new_with_proplist(pa_mainloop_api *mainloop, const char *name, const pa_proplist *proplist) {
    return RAUDIO_CALL(pa_context_new_with_proplist)(mainloop, name, proplist);
}

RAUDIO_FORWARD pa_time_event *pa_context_rttime_new(const pa_context *c, pa_usec_t usec, pa_time_event_cb_t cb, void *userdata) {
    return RAUDIO_CALL(pa_context_rttime_new)(c, usec, cb, userdata);
}

RAUDIO_FORWARD void pa_context_rttime_restart(const pa_context *c, pa_time_event *e, pa_usec_t usec) {
    RAUDIO_CALL(pa_context_rttime_restart)(c, e, usec);
}

RAUDIO_FORWARD void pa_context_set_state_callback(pa_context *c, pa_context_notify_cb_t cb, void *userdata) {
    RAUDIO_CALL(pa_context_set_state_callback)(c, cb, userdata);
}

RAUDIO_FORWARD void pa_context_unref(pa_context *c) {
    RAUDIO_CALL(pa_context_unref)(c);
}

RAUDIO_FORWARD pa_operation_state_t pa_operation_get_state(const pa_operation *o) {
    return RAUDIO_CALL(pa_operation_get_state)(o);
}

RAUDIO_FORWARD void pa_operation_unref(pa_operation *o) {
    RAUDIO_CALL(pa_operation_unref)(o);
}

RAUDIO_FORWARD void pa_proplist_free(pa_proplist *p) {
    RAUDIO_CALL(pa_proplist_free)(p);
}

RAUDIO_FORWARD pa_proplist *pa_proplist_new(void) {
    return RAUDIO_CALL(pa_proplist_new)();
}

RAUDIO_FORWARD int pa_proplist_sets(pa_proplist *p, const char *key, const char *value) {
    return RAUDIO_CALL(pa_proplist_sets)(p, key, value);
}

RAUDIO_FORWARD int pa_stream_connect_playback(pa_stream *s, const char *dev, const pa_buffer_attr *attr, pa_stream_flags_t flags, const pa_cvolume *volume, pa_stream *sync_stream) {
    return RAUDIO_CALL(pa_stream_connect_playback)(s, dev, attr, flags, volume, sync_stream);
}

RAUDIO_FORWARD pa_operation *pa_stream_cork(pa_stream *s, int b, pa_stream_success_cb_t cb, void *userdata) {
    return RAUDIO_CALL(pa_stream_cork)(s, b, cb, userdata);
}

RAUDIO_FORWARD int pa_stream_disconnect(pa_stream *s) {
    return RAUDIO_CALL(pa_stream_disconnect)(s);
}

RAUDIO_FORWARD pa_operation *pa_stream_drain(pa_stream *s, pa_stream_success_cb_t cb, void *userdata) {
    return RAUDIO_CALL(pa_stream_drain)(s, cb, userdata);
}

RAUDIO_FORWARD pa_operation *pa_stream_flush(pa_stream *s, pa_stream_success_cb_t cb, void *userdata) {
    return RAUDIO_CALL(pa_stream_flush)(s, cb, userdata);
}

RAUDIO_FORWARD const pa_buffer_attr *pa_stream_get_buffer_attr(pa_stream *s) {
    return RAUDIO_CALL(pa_stream_get_buffer_attr)(s);
}

RAUDIO_FORWARD int pa_stream_get_latency(pa_stream *s, pa_usec_t *r_usec, int *negative) {
    return RAUDIO_CALL(pa_stream_get_latency)(s, r_usec, negative);
}

RAUDIO_FORWARD pa_stream_state_t pa_stream_get_state(const pa_stream *p) {
    return RAUDIO_CALL(pa_stream_get_state)(p);
}

RAUDIO_FORWARD const pa_timing_info *pa_stream_get_timing_info(pa_stream *s) {
    return RAUDIO_CALL(pa_stream_get_timing_info)(s);
}

RAUDIO_FORWARD pa_stream *pa_stream_new_with_proplist(pa_context *c, const char *name, const pa_sample_spec *ss, const pa_channel_map *map, pa_proplist *p) {
    return RAUDIO_CALL(pa_stream_new_with_proplist)(c, name, ss, map, p);
}

RAUDIO_FORWARD void pa_stream_set_state_callback(pa_stream *s, pa_stream_notify_cb_t cb, void *userdata) {
    RAUDIO_CALL(pa_stream_set_state_callback)(s, cb, userdata);
}

RAUDIO_FORWARD void pa_stream_set_write_callback(pa_stream *p, pa_stream_request_cb_t cb, void *userdata) {
    RAUDIO_CALL(pa_stream_set_write_callback)(p, cb, userdata);
}

RAUDIO_FORWARD void pa_stream_unref(pa_stream *s) {
    RAUDIO_CALL(pa_stream_unref)(s);
}

RAUDIO_FORWARD pa_operation *pa_stream_update_timing_info(pa_stream *p, pa_stream_success_cb_t cb, void *userdata) {
    return RAUDIO_CALL(pa_stream_update_timing_info)(p, cb, userdata);
}

RAUDIO_FORWARD size_t pa_stream_writable_size(const pa_stream *p) {
    return RAUDIO_CALL(pa_stream_writable_size)(p);
}

RAUDIO_FORWARD int pa_stream_write(pa_stream *p, const void *data, size_t nbytes, pa_free_cb_t free_cb, int64_t offset, pa_seek_mode_t seek) {
    return RAUDIO_CALL(pa_stream_write)(p, data, nbytes, free_cb, offset, seek);
}

RAUDIO_FORWARD void pa_threaded_mainloop_free(pa_threaded_mainloop *m) {
    RAUDIO_CALL(pa_threaded_mainloop_free)(m);
}

RAUDIO_FORWARD pa_mainloop_api *pa_threaded_mainloop_get_api(pa_threaded_mainloop *m) {
    return RAUDIO_CALL(pa_threaded_mainloop_get_api)(m);
}

RAUDIO_FORWARD void pa_threaded_mainloop_lock(pa_threaded_mainloop *m) {
    RAUDIO_CALL(pa_threaded_mainloop_lock)(m);
}

RAUDIO_FORWARD pa_threaded_mainloop *pa_threaded_mainloop_new(void) {
    return RAUDIO_CALL(pa_threaded_mainloop_new)();
}

RAUDIO_FORWARD void pa_threaded_mainloop_signal(pa_threaded_mainloop *m, int wait_for_accept) {
    RAUDIO_CALL(pa_threaded_mainloop_signal)(m, wait_for_accept);
}

RAUDIO_FORWARD int pa_threaded_mainloop_start(pa_threaded_mainloop *m) {
    return RAUDIO_CALL(pa_threaded_mainloop_start)(m);
}

RAUDIO_FORWARD void pa_threaded_mainloop_stop(pa_threaded_mainloop *m) {
    RAUDIO_CALL(pa_threaded_mainloop_stop)(m);
}

RAUDIO_FORWARD void pa_threaded_mainloop_unlock(pa_threaded_mainloop *m) {
    RAUDIO_CALL(pa_threaded_mainloop_unlock)(m);
}

RAUDIO_FORWARD void pa_threaded_mainloop_wait(pa_threaded_mainloop *m) {
    RAUDIO_CALL(pa_threaded_mainloop_wait)(m);
}

RAUDIO_FORWARD size_t pa_usec_to_bytes(pa_usec_t t, const pa_sample_spec *spec) {
    return RAUDIO_CALL(pa_usec_to_bytes)(t, spec);
}

RAUDIO_FORWARD const char *pa_get_library_version(void) {
    return RAUDIO_CALL(pa_get_library_version)();
}

RAUDIO_FORWARD pa_usec_t pa_rtclock_now(void) {
    return RAUDIO_CALL(pa_rtclock_now)();
}

RAUDIO_FORWARD const char *pa_strerror(int error) {
    return RAUDIO_CALL(pa_strerror)(error);
}

