#ifndef ROMDEV_CI2C_SHIM_H
#define ROMDEV_CI2C_SHIM_H
#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>

// ioctl(2) is variadic, so Swift cannot call it directly; these wrap the two requests we use.

/// The corresponding call is `ioctl(fd, I2C_SLAVE, address)`.
static inline int romdev_i2c_select_address(int fd, unsigned long address) {
    return ioctl(fd, I2C_SLAVE, address);
}

/// The corresponding call is `ioctl(fd, I2C_FUNCS, &funcs)`.
static inline int romdev_i2c_functionality(int fd, unsigned long *funcs) {
    return ioctl(fd, I2C_FUNCS, funcs);
}

#endif
