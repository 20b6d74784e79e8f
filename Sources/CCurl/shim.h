// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CCURL_SHIM_H
#define RAUDIO_CCURL_SHIM_H
#include <curl/curl.h>

/* libcurl is not linked: raudio loads it with dlopen when a remote publication is first fetched
   (CurlLibrary), so a process playing local files does not load it, nor the ~25 libraries it needs
   (TLS, Kerberos, LDAP, SSH). curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
   call: one typed wrapper per argument kind, each given the function looked up with dlsym. */

typedef CURLcode (*raudio_curl_easy_setopt_fn)(CURL *handle, CURLoption option, ...);
typedef CURLcode (*raudio_curl_easy_getinfo_fn)(CURL *handle, CURLINFO info, ...);

static inline CURLcode raudio_curl_setopt_long(void *setopt, CURL *handle, CURLoption option, long value) {
    return ((raudio_curl_easy_setopt_fn)setopt)(handle, option, value);
}

static inline CURLcode raudio_curl_setopt_pointer(void *setopt, CURL *handle, CURLoption option, void *value) {
    return ((raudio_curl_easy_setopt_fn)setopt)(handle, option, value);
}

static inline CURLcode raudio_curl_setopt_string(void *setopt, CURL *handle, CURLoption option, const char *value) {
    return ((raudio_curl_easy_setopt_fn)setopt)(handle, option, value);
}

typedef size_t (*raudio_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*raudio_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                             curl_off_t upload_total, curl_off_t uploaded);

static inline CURLcode raudio_curl_setopt_data_callback(void *setopt, CURL *handle, CURLoption option, raudio_curl_data_callback callback) {
    return ((raudio_curl_easy_setopt_fn)setopt)(handle, option, callback);
}

static inline CURLcode raudio_curl_setopt_progress_callback(void *setopt, CURL *handle, raudio_curl_progress_callback callback) {
    return ((raudio_curl_easy_setopt_fn)setopt)(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode raudio_curl_getinfo_long(void *getinfo, CURL *handle, CURLINFO info, long *value) {
    return ((raudio_curl_easy_getinfo_fn)getinfo)(handle, info, value);
}

static inline CURLcode raudio_curl_getinfo_string(void *getinfo, CURL *handle, CURLINFO info, char **value) {
    return ((raudio_curl_easy_getinfo_fn)getinfo)(handle, info, value);
}

#endif
