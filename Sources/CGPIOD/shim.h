#ifndef ROMDEV_CGPIOD_SHIM_H
#define ROMDEV_CGPIOD_SHIM_H

// One small API over libgpiod v1.6 (Debian 12, Raspberry Pi OS bookworm) and v2.x (Debian 13
// trixie). The two APIs share almost nothing, and Swift's `#if` cannot see C macros, so the choice
// is made here: v1's gpiod.h defines GPIOD_LINE_BULK_MAX_LINES, v2's does not.
//
// Conventions for every function below: on failure, pointers are NULL and ints are -1, with errno
// set (by libgpiod or the kernel). Values and edges are physical levels; polarity (an active-low
// button) is the caller's business, so both versions report the same thing.

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gpiod.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES
#define ROMDEV_GPIOD_API_VERSION 1
#else
#define ROMDEV_GPIOD_API_VERSION 2
#endif

/// A requested line: one line of a v1 chip, or a one-line v2 request.
typedef struct romdev_gpio_line romdev_gpio_line;

struct romdev_gpio_line {
#if ROMDEV_GPIOD_API_VERSION == 1
    struct gpiod_line *line;
#else
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    unsigned int offset;
#endif
};

/// The libgpiod API this build compiled against: 1 or 2.
static inline int romdev_gpio_api_version(void) {
    return ROMDEV_GPIOD_API_VERSION;
}

/// The library's own version string, e.g. "1.6.3".
static inline const char *romdev_gpio_library_version(void) {
#if ROMDEV_GPIOD_API_VERSION == 1
    return gpiod_version_string();
#else
    return gpiod_api_version();
#endif
}

/// Opens a chip by device path, e.g. "/dev/gpiochip0". Close with romdev_gpio_chip_close.
static inline struct gpiod_chip *romdev_gpio_chip_open(const char *path) {
    return gpiod_chip_open(path);
}

static inline void romdev_gpio_chip_close(struct gpiod_chip *chip) {
    gpiod_chip_close(chip);
}

static inline void romdev_gpio_copy_string(char *destination, size_t size, const char *source) {
    if (size == 0) {
        return;
    }
    if (source == NULL) {
        source = "";
    }
    strncpy(destination, source, size - 1);
    destination[size - 1] = '\0';
}

/// Copies the chip's kernel name ("gpiochip0") and label ("pinctrl-bcm2711") into the buffers
/// (truncated, always NUL-terminated) and stores its number of lines. Returns 0 or -1.
static inline int romdev_gpio_chip_describe(struct gpiod_chip *chip,
                                            char *name, size_t name_size,
                                            char *label, size_t label_size,
                                            unsigned int *num_lines) {
#if ROMDEV_GPIOD_API_VERSION == 1
    romdev_gpio_copy_string(name, name_size, gpiod_chip_name(chip));
    romdev_gpio_copy_string(label, label_size, gpiod_chip_label(chip));
    *num_lines = gpiod_chip_num_lines(chip);
    return 0;
#else
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (info == NULL) {
        return -1;
    }
    romdev_gpio_copy_string(name, name_size, gpiod_chip_info_get_name(info));
    romdev_gpio_copy_string(label, label_size, gpiod_chip_info_get_label(info));
    *num_lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return 0;
#endif
}

/// The offset of the line the device tree names `name` (e.g. "GPIO17"), or -1 with errno ENOENT
/// when this chip has no such line.
static inline int romdev_gpio_chip_find_line(struct gpiod_chip *chip, const char *name) {
#if ROMDEV_GPIOD_API_VERSION == 1
    struct gpiod_line *line = gpiod_chip_find_line(chip, name);
    if (line == NULL) {
        return -1;
    }
    return (int)gpiod_line_offset(line);
#else
    return gpiod_chip_get_line_offset_from_name(chip, name);
#endif
}

#if ROMDEV_GPIOD_API_VERSION == 2
// Builds a one-line request from `settings` (which it frees), keeping errno from the first failure.
static inline struct gpiod_line_request *romdev_gpio_request_one(struct gpiod_chip *chip,
                                                                 unsigned int offset,
                                                                 const char *consumer,
                                                                 struct gpiod_line_settings *settings) {
    struct gpiod_line_request *request = NULL;
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    int saved_errno = ENOMEM;
    if (settings != NULL && line_config != NULL && request_config != NULL) {
        gpiod_request_config_set_consumer(request_config, consumer);
        if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) == 0) {
            request = gpiod_chip_request_lines(chip, request_config, line_config);
        }
        saved_errno = errno;
    }
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    gpiod_line_settings_free(settings);
    if (request == NULL) {
        errno = saved_errno;
    }
    return request;
}
#endif

/// Requests line `offset` as an input with the internal pull-up and events on both edges (the
/// button: switch to ground). Bias needs kernel >= 5.5. Release with romdev_gpio_line_release.
static inline romdev_gpio_line *romdev_gpio_request_input(struct gpiod_chip *chip,
                                                          unsigned int offset,
                                                          const char *consumer) {
    romdev_gpio_line *result = calloc(1, sizeof(*result));
    if (result == NULL) {
        return NULL;
    }
#if ROMDEV_GPIOD_API_VERSION == 1
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (line == NULL
        || gpiod_line_request_both_edges_events_flags(line, consumer,
                                                      GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP) != 0) {
        int saved_errno = errno;
        free(result);
        errno = saved_errno;
        return NULL;
    }
    result->line = line;
#else
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings != NULL) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_PULL_UP);
        gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
        gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
    }
    struct gpiod_line_request *request = romdev_gpio_request_one(chip, offset, consumer, settings);
    // Capacity 1: each read takes exactly one event, as v1's gpiod_line_event_read does.
    struct gpiod_edge_event_buffer *events = request ? gpiod_edge_event_buffer_new(1) : NULL;
    if (request == NULL || events == NULL) {
        int saved_errno = request ? ENOMEM : errno;
        if (request != NULL) {
            gpiod_line_request_release(request);
        }
        free(result);
        errno = saved_errno;
        return NULL;
    }
    result->request = request;
    result->events = events;
    result->offset = offset;
#endif
    return result;
}

/// Requests line `offset` as a push-pull output driven to `initial_value` (0 or 1) from the start.
static inline romdev_gpio_line *romdev_gpio_request_output(struct gpiod_chip *chip,
                                                           unsigned int offset,
                                                           const char *consumer,
                                                           int initial_value) {
    romdev_gpio_line *result = calloc(1, sizeof(*result));
    if (result == NULL) {
        return NULL;
    }
#if ROMDEV_GPIOD_API_VERSION == 1
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (line == NULL || gpiod_line_request_output(line, consumer, initial_value ? 1 : 0) != 0) {
        int saved_errno = errno;
        free(result);
        errno = saved_errno;
        return NULL;
    }
    result->line = line;
#else
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings != NULL) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
        gpiod_line_settings_set_output_value(settings, initial_value ? GPIOD_LINE_VALUE_ACTIVE
                                                                     : GPIOD_LINE_VALUE_INACTIVE);
    }
    struct gpiod_line_request *request = romdev_gpio_request_one(chip, offset, consumer, settings);
    if (request == NULL) {
        int saved_errno = errno;
        free(result);
        errno = saved_errno;
        return NULL;
    }
    result->request = request;
    result->events = NULL;
    result->offset = offset;
#endif
    return result;
}

/// Drives an output line to 0 or 1. Returns 0 or -1.
static inline int romdev_gpio_line_set_value(romdev_gpio_line *line, int value) {
#if ROMDEV_GPIOD_API_VERSION == 1
    return gpiod_line_set_value(line->line, value ? 1 : 0);
#else
    return gpiod_line_request_set_value(line->request, line->offset,
                                        value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
#endif
}

/// Reads a line's level: 0, 1, or -1 on error.
static inline int romdev_gpio_line_get_value(romdev_gpio_line *line) {
#if ROMDEV_GPIOD_API_VERSION == 1
    return gpiod_line_get_value(line->line);
#else
    return (int)gpiod_line_request_get_value(line->request, line->offset);
#endif
}

/// Waits up to `timeout_ns` (negative: forever) for an edge event on an input line.
/// Returns 1 when one is pending, 0 on timeout, -1 on error (EINTR included).
static inline int romdev_gpio_line_wait_event(romdev_gpio_line *line, int64_t timeout_ns) {
#if ROMDEV_GPIOD_API_VERSION == 1
    if (timeout_ns < 0) {
        return gpiod_line_event_wait(line->line, NULL);
    }
    struct timespec timeout = {
        .tv_sec = (time_t)(timeout_ns / 1000000000),
        .tv_nsec = (long)(timeout_ns % 1000000000),
    };
    return gpiod_line_event_wait(line->line, &timeout);
#else
    return gpiod_line_request_wait_edge_events(line->request, timeout_ns);
#endif
}

/// Reads the next edge event (blocks if none is pending): `*rising` is 1 for a rising edge, 0 for
/// a falling one; `*timestamp_ns` is the kernel's timestamp (CLOCK_MONOTONIC on kernels >= 5.7).
/// Returns 0 or -1.
static inline int romdev_gpio_line_read_event(romdev_gpio_line *line, int *rising,
                                              uint64_t *timestamp_ns) {
#if ROMDEV_GPIOD_API_VERSION == 1
    struct gpiod_line_event event;
    if (gpiod_line_event_read(line->line, &event) != 0) {
        return -1;
    }
    *rising = event.event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    *timestamp_ns = (uint64_t)event.ts.tv_sec * 1000000000u + (uint64_t)event.ts.tv_nsec;
    return 0;
#else
    if (line->events == NULL) {
        errno = EINVAL;
        return -1;
    }
    int count = gpiod_line_request_read_edge_events(line->request, line->events, 1);
    if (count < 0) {
        return -1;
    }
    if (count == 0) {
        errno = EAGAIN;
        return -1;
    }
    struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(line->events, 0);
    *rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
    *timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
    return 0;
#endif
}

/// The descriptor that becomes readable when an edge event is pending, for poll(2) alongside
/// other sources. Owned by the line: never close it. -1 for an output line.
static inline int romdev_gpio_line_event_fd(romdev_gpio_line *line) {
#if ROMDEV_GPIOD_API_VERSION == 1
    return gpiod_line_event_get_fd(line->line);
#else
    if (line->events == NULL) {
        errno = EINVAL;
        return -1;
    }
    return gpiod_line_request_get_fd(line->request);
#endif
}

/// Releases the line back to the kernel and frees `line`. After this the line may revert to its
/// default state, so outputs should be driven to their safe level first.
static inline void romdev_gpio_line_release(romdev_gpio_line *line) {
    if (line == NULL) {
        return;
    }
#if ROMDEV_GPIOD_API_VERSION == 1
    gpiod_line_release(line->line);
#else
    if (line->events != NULL) {
        gpiod_edge_event_buffer_free(line->events);
    }
    gpiod_line_request_release(line->request);
#endif
    free(line);
}

#endif
