#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define HUBGEO_LIBCURL "libcurl.so.4"

/// The libcurl functions hubgeo calls, looked up by name.
struct curl_functions {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
};

static int open_library(const char *library, struct curl_functions *functions, char *error, size_t size) {
    // RTLD_NODELETE: libcurl stays mapped for the life of the process, as a linked library would.
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle == NULL) {
        snprintf(error, size, "cannot load libcurl (%s, Debian package libcurl4): %s", library, dlerror());
        return -1;
    }
    struct { const char *name; void **slot; } symbols[] = {
        {"curl_global_init", (void **)&functions->global_init},
        {"curl_easy_init", (void **)&functions->easy_init},
        {"curl_easy_cleanup", (void **)&functions->easy_cleanup},
        {"curl_easy_perform", (void **)&functions->easy_perform},
        {"curl_easy_strerror", (void **)&functions->easy_strerror},
        {"curl_easy_setopt", (void **)&functions->easy_setopt},
        {"curl_easy_getinfo", (void **)&functions->easy_getinfo},
        {"curl_slist_append", (void **)&functions->slist_append},
        {"curl_slist_free_all", (void **)&functions->slist_free_all},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        dlerror();
        *symbols[i].slot = dlsym(handle, symbols[i].name);
        if (*symbols[i].slot == NULL) {
            const char *reason = dlerror();
            snprintf(error, size, "%s has no %s: %s", library, symbols[i].name, reason ? reason : "not found");
            dlclose(handle);
            return -1;
        }
    }
    return 0;
}

static struct curl_functions curl;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static const char *load_failure = NULL;

static void load(void) {
    if (open_library(HUBGEO_LIBCURL, &curl, load_error, sizeof load_error) != 0) {
        load_failure = load_error;
        return;
    }
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "%s could not be initialized (curl_global_init: %s)",
                 HUBGEO_LIBCURL, curl.easy_strerror(code));
        load_failure = load_error;
    }
}

const char *hubgeo_curl_load(void) {
    pthread_once(&load_once, load);
    return load_failure;
}

int hubgeo_curl_probe(const char *library, char *error, size_t size) {
    struct curl_functions functions;
    return open_library(library, &functions, error, size);
}

CURL *hubgeo_curl_easy_init(void) { return curl.easy_init(); }
void hubgeo_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode hubgeo_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *hubgeo_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *hubgeo_curl_slist_append(struct curl_slist *list, const char *string) {
    return curl.slist_append(list, string);
}
void hubgeo_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode hubgeo_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode hubgeo_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode hubgeo_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode hubgeo_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode hubgeo_curl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode hubgeo_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback value) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
CURLcode hubgeo_curl_setopt_prereq_callback(CURL *handle, curl_prereq_callback value) {
    return curl.easy_setopt(handle, CURLOPT_PREREQFUNCTION, value);
}

CURLcode hubgeo_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode hubgeo_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode hubgeo_curl_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl.easy_getinfo(handle, info, value);
}
