// SPDX-License-Identifier: GPL-3.0-or-later
// libsystemd's sd-bus, loaded with dlopen when the desktop's media controls (MPRIS) first connect to the
// session bus: linked, it and the libraries it needs (libgcrypt, liblzma, libzstd, liblz4, libcap) were
// mapped by every process. See lazy_library.h.
#include "shim.h"
#include <lazy_library.h>

#define SONAME "libsystemd.so.0"

/* Every function of the library raudio calls, in alphabetical order. */
#define FUNCTIONS(X) \
    X(sd_bus_add_object) \
    X(sd_bus_flush) \
    X(sd_bus_flush_close_unref) \
    X(sd_bus_get_events) \
    X(sd_bus_get_fd) \
    X(sd_bus_get_timeout) \
    X(sd_bus_message_append_basic) \
    X(sd_bus_message_at_end) \
    X(sd_bus_message_close_container) \
    X(sd_bus_message_enter_container) \
    X(sd_bus_message_exit_container) \
    X(sd_bus_message_get_expect_reply) \
    X(sd_bus_message_get_interface) \
    X(sd_bus_message_get_member) \
    X(sd_bus_message_get_path) \
    X(sd_bus_message_get_signature) \
    X(sd_bus_message_is_method_call) \
    X(sd_bus_message_new_method_return) \
    X(sd_bus_message_new_signal) \
    X(sd_bus_message_open_container) \
    X(sd_bus_message_peek_type) \
    X(sd_bus_message_read_basic) \
    X(sd_bus_message_ref) \
    X(sd_bus_message_unref) \
    X(sd_bus_open_user) \
    X(sd_bus_process) \
    X(sd_bus_release_name) \
    X(sd_bus_reply_method_error) \
    X(sd_bus_request_name) \
    X(sd_bus_send) \
    X(sd_bus_slot_unref)

RAUDIO_LAZY_LIBRARY(SONAME, "libsystemd0", raudio_systemd_load_error)

RAUDIO_FORWARD int sd_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback, void *userdata) {
    return RAUDIO_CALL(sd_bus_add_object)(bus, slot, path, callback, userdata);
}

RAUDIO_FORWARD int sd_bus_flush(sd_bus *bus) {
    return RAUDIO_CALL(sd_bus_flush)(bus);
}

RAUDIO_FORWARD sd_bus *sd_bus_flush_close_unref(sd_bus *bus) {
    return RAUDIO_CALL(sd_bus_flush_close_unref)(bus);
}

RAUDIO_FORWARD int sd_bus_get_events(sd_bus *bus) {
    return RAUDIO_CALL(sd_bus_get_events)(bus);
}

RAUDIO_FORWARD int sd_bus_get_fd(sd_bus *bus) {
    return RAUDIO_CALL(sd_bus_get_fd)(bus);
}

RAUDIO_FORWARD int sd_bus_get_timeout(sd_bus *bus, uint64_t *timeout_usec) {
    return RAUDIO_CALL(sd_bus_get_timeout)(bus, timeout_usec);
}

RAUDIO_FORWARD int sd_bus_message_append_basic(sd_bus_message *m, char type, const void *p) {
    return RAUDIO_CALL(sd_bus_message_append_basic)(m, type, p);
}

RAUDIO_FORWARD int sd_bus_message_at_end(sd_bus_message *m, int complete) {
    return RAUDIO_CALL(sd_bus_message_at_end)(m, complete);
}

RAUDIO_FORWARD int sd_bus_message_close_container(sd_bus_message *m) {
    return RAUDIO_CALL(sd_bus_message_close_container)(m);
}

RAUDIO_FORWARD int sd_bus_message_enter_container(sd_bus_message *m, char type, const char *contents) {
    return RAUDIO_CALL(sd_bus_message_enter_container)(m, type, contents);
}

RAUDIO_FORWARD int sd_bus_message_exit_container(sd_bus_message *m) {
    return RAUDIO_CALL(sd_bus_message_exit_container)(m);
}

RAUDIO_FORWARD int sd_bus_message_get_expect_reply(sd_bus_message *m) {
    return RAUDIO_CALL(sd_bus_message_get_expect_reply)(m);
}

RAUDIO_FORWARD const char *sd_bus_message_get_interface(sd_bus_message *m) {
    return RAUDIO_CALL(sd_bus_message_get_interface)(m);
}

RAUDIO_FORWARD const char *sd_bus_message_get_member(sd_bus_message *m) {
    return RAUDIO_CALL(sd_bus_message_get_member)(m);
}

RAUDIO_FORWARD const char *sd_bus_message_get_path(sd_bus_message *m) {
    return RAUDIO_CALL(sd_bus_message_get_path)(m);
}

RAUDIO_FORWARD const char *sd_bus_message_get_signature(sd_bus_message *m, int complete) {
    return RAUDIO_CALL(sd_bus_message_get_signature)(m, complete);
}

RAUDIO_FORWARD int sd_bus_message_is_method_call(sd_bus_message *m, const char *interface, const char *member) {
    return RAUDIO_CALL(sd_bus_message_is_method_call)(m, interface, member);
}

RAUDIO_FORWARD int sd_bus_message_new_method_return(sd_bus_message *call, sd_bus_message **m) {
    return RAUDIO_CALL(sd_bus_message_new_method_return)(call, m);
}

RAUDIO_FORWARD int sd_bus_message_new_signal(sd_bus *bus, sd_bus_message **m, const char *path, const char *interface, const char *member) {
    return RAUDIO_CALL(sd_bus_message_new_signal)(bus, m, path, interface, member);
}

RAUDIO_FORWARD int sd_bus_message_open_container(sd_bus_message *m, char type, const char *contents) {
    return RAUDIO_CALL(sd_bus_message_open_container)(m, type, contents);
}

RAUDIO_FORWARD int sd_bus_message_peek_type(sd_bus_message *m, char *type, const char **contents) {
    return RAUDIO_CALL(sd_bus_message_peek_type)(m, type, contents);
}

RAUDIO_FORWARD int sd_bus_message_read_basic(sd_bus_message *m, char type, void *p) {
    return RAUDIO_CALL(sd_bus_message_read_basic)(m, type, p);
}

RAUDIO_FORWARD sd_bus_message *sd_bus_message_ref(sd_bus_message *m) {
    return RAUDIO_CALL(sd_bus_message_ref)(m);
}

RAUDIO_FORWARD sd_bus_message *sd_bus_message_unref(sd_bus_message *m) {
    return RAUDIO_CALL(sd_bus_message_unref)(m);
}

RAUDIO_FORWARD int sd_bus_open_user(sd_bus **ret) {
    return RAUDIO_CALL(sd_bus_open_user)(ret);
}

RAUDIO_FORWARD int sd_bus_process(sd_bus *bus, sd_bus_message **r) {
    return RAUDIO_CALL(sd_bus_process)(bus, r);
}

RAUDIO_FORWARD int sd_bus_release_name(sd_bus *bus, const char *name) {
    return RAUDIO_CALL(sd_bus_release_name)(bus, name);
}

RAUDIO_FORWARD int sd_bus_reply_method_error(sd_bus_message *call, const sd_bus_error *e) {
    return RAUDIO_CALL(sd_bus_reply_method_error)(call, e);
}

RAUDIO_FORWARD int sd_bus_request_name(sd_bus *bus, const char *name, uint64_t flags) {
    return RAUDIO_CALL(sd_bus_request_name)(bus, name, flags);
}

RAUDIO_FORWARD int sd_bus_send(sd_bus *bus, sd_bus_message *m, uint64_t *cookie) {
    return RAUDIO_CALL(sd_bus_send)(bus, m, cookie);
}

RAUDIO_FORWARD sd_bus_slot *sd_bus_slot_unref(sd_bus_slot *slot) {
    return RAUDIO_CALL(sd_bus_slot_unref)(slot);
}

