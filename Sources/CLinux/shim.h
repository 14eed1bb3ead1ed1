// Linux descriptors for events that Glibc's Swift module does not declare: eventfd(2),
// timerfd_create(2) and signalfd(2), all in glibc itself (nothing to link).
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
