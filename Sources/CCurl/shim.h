// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CCURL_SHIM_H
#define RAUDIO_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per
   argument kind. */

static inline CURLcode raudio_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode raudio_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode raudio_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*raudio_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*raudio_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                             curl_off_t upload_total, curl_off_t uploaded);

static inline CURLcode raudio_curl_setopt_data_callback(CURL *handle, CURLoption option, raudio_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode raudio_curl_setopt_progress_callback(CURL *handle, raudio_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode raudio_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode raudio_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
