#ifndef HUBGEO_CCURL_H
#define HUBGEO_CCURL_H

// libcurl, opened at run time: hubgeo does not link it, so only the commands that fetch load
// it (and its TLS, Kerberos, LDAP, ... libraries). <curl/curl.h> (libcurl4-openssl-dev) gives
// the types and constants; the functions come from libcurl.so.4 through dlsym.

#include <curl/curl.h>
#include <stddef.h>

/// Loads libcurl.so.4 and runs curl_global_init, once per process (thread-safe). NULL when
/// libcurl is ready; else why not, naming the library (the same text on every call).
/// Every other function here may be called only after this returned NULL.
const char *hubgeo_curl_load(void);

/// Opens `library` and looks up every function hubgeo uses, without touching the process's
/// libcurl: 0 when all are there; else -1 and the reason in `error`. For tests.
int hubgeo_curl_probe(const char *library, char *error, size_t size);

CURL *hubgeo_curl_easy_init(void);
void hubgeo_curl_easy_cleanup(CURL *handle);
CURLcode hubgeo_curl_easy_perform(CURL *handle);
const char *hubgeo_curl_easy_strerror(CURLcode code);
struct curl_slist *hubgeo_curl_slist_append(struct curl_slist *list, const char *string);
void hubgeo_curl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call.
// These typed wrappers give Swift one entry point per argument type.

CURLcode hubgeo_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode hubgeo_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode hubgeo_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode hubgeo_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode hubgeo_curl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value);
CURLcode hubgeo_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback value);
// Called just before each request of a transfer goes out: the first, each redirect, and each
// resend on a fresh connection after a kept-alive one turned out closed.
CURLcode hubgeo_curl_setopt_prereq_callback(CURL *handle, curl_prereq_callback value);

CURLcode hubgeo_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode hubgeo_curl_getinfo_string(CURL *handle, CURLINFO info, char **value);
CURLcode hubgeo_curl_getinfo_double(CURL *handle, CURLINFO info, double *value);

#endif
