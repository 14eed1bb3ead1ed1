// SPDX-License-Identifier: GPL-2.0
/*
 * mpu6050-sim: an I2C adapter with one MPU-6050 on it, for the kernel tier.
 *
 * i2c-stub is a bare register file: nothing samples, so nothing fills a FIFO, and the driver's
 * FIFO path could never meet a kernel. This adapter answers at 0x68 as the sensor does (register
 * map revision 4.2): a device reset, sleep, the sample rate from SMPLRT_DIV and DLPF_CFG, the
 * full-scale ranges, data registers, INT_STATUS cleared by reading it, and a 1024-byte FIFO that
 * an hrtimer fills at the configured rate. When the FIFO is full the oldest bytes are dropped
 * for the new ones and FIFO_OFLOW_INT is set; FIFO_R_W does not advance the register address,
 * and reading it empty returns the last byte read.
 *
 * What the sensor measures comes from a motion profile written to debugfs
 * (mpu6050-sim/profile): records of seven little-endian s32 in physical units, acceleration
 * x, y, z in micro-g, temperature in milli-degrees Celsius, angular rate x, y, z in milli-degrees
 * per second. One record is played per sample at whatever rate is configured, from the first on
 * after a device reset or a new profile; after the last the sensor keeps reading the last one.
 * Without a profile it lies still and level. The values are scaled by the configured ranges and
 * saturate as the sensor does.
 */
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/i2c.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#define SIM_ADDRESS 0x68
#define FIFO_SIZE 1024
#define RECORD_WORDS 7
#define RECORD_BYTES (RECORD_WORDS * 4)
/* Ten minutes at 1 kHz. */
#define MAX_PROFILE_BYTES (600 * 1000 * RECORD_BYTES)

#define REG_SMPLRT_DIV 0x19
#define REG_CONFIG 0x1A
#define REG_GYRO_CONFIG 0x1B
#define REG_ACCEL_CONFIG 0x1C
#define REG_FIFO_EN 0x23
#define REG_INT_STATUS 0x3A
#define REG_ACCEL_XOUT_H 0x3B
#define REG_GYRO_ZOUT_L 0x48
#define REG_USER_CTRL 0x6A
#define REG_PWR_MGMT_1 0x6B
#define REG_FIFO_COUNT_H 0x72
#define REG_FIFO_COUNT_L 0x73
#define REG_FIFO_R_W 0x74
#define REG_WHO_AM_I 0x75

#define PWR_DEVICE_RESET 0x80
#define PWR_SLEEP 0x40
#define USER_FIFO_EN 0x40
#define USER_FIFO_RESET 0x04
#define USER_SIG_COND_RESET 0x01
#define INT_FIFO_OFLOW 0x10
#define INT_DATA_RDY 0x01
#define FIFO_TEMP 0x80
#define FIFO_XG 0x40
#define FIFO_YG 0x20
#define FIFO_ZG 0x10
#define FIFO_ACCEL 0x08

struct mpu_sim {
	spinlock_t lock;
	u8 regs[128];
	u8 fifo[FIFO_SIZE];
	unsigned int fifo_head; /* index of the oldest byte */
	unsigned int fifo_count;
	u8 last_fifo_byte;
	s32 *profile;
	size_t profile_records;
	size_t cursor;
	bool sampling;
	struct hrtimer timer;
	/* Profile upload: one writer at a time, written in place, published on release. */
	unsigned long uploading;
	u8 *upload;
	size_t upload_length;
};

static struct mpu_sim sim;
static struct dentry *debug_dir;

static void sim_power_on_state(void)
{
	memset(sim.regs, 0, sizeof(sim.regs));
	sim.regs[REG_PWR_MGMT_1] = PWR_SLEEP;
	sim.regs[REG_WHO_AM_I] = 0x68;
	sim.fifo_head = 0;
	sim.fifo_count = 0;
	sim.last_fifo_byte = 0;
	sim.cursor = 0;
}

static u64 sim_period_ns(void)
{
	unsigned int dlpf = sim.regs[REG_CONFIG] & 0x07;
	/* The gyro output rate: 8 kHz with the low-pass filter off (DLPF_CFG 0 or 7), else 1 kHz. */
	u64 output_hz = (dlpf == 0 || dlpf == 7) ? 8000 : 1000;

	return div64_u64(NSEC_PER_SEC * (u64)(1 + sim.regs[REG_SMPLRT_DIV]), output_hz);
}

static s16 saturate(s64 counts)
{
	return (s16)clamp_t(s64, counts, S16_MIN, S16_MAX);
}

static void put_be16(u8 *to, s16 value)
{
	to[0] = (u8)((u16)value >> 8);
	to[1] = (u8)value;
}

/* The data registers (ACCEL_XOUT_H … GYRO_ZOUT_L) for one record in the configured ranges. */
static void sim_measure(const s32 *record)
{
	static const s32 still[RECORD_WORDS] = { 0, 0, 1000000, 25000, 0, 0, 0 };
	unsigned int accel_range = (sim.regs[REG_ACCEL_CONFIG] >> 3) & 0x03;
	unsigned int gyro_range = (sim.regs[REG_GYRO_CONFIG] >> 3) & 0x03;
	u8 *data = &sim.regs[REG_ACCEL_XOUT_H];
	int axis;

	if (!record)
		record = still;
	for (axis = 0; axis < 3; axis++) {
		/* 16384 LSB/g at ±2 g, halved per range step. */
		s64 accel = div_s64((s64)record[axis] * (16384 >> accel_range), 1000000);
		/* 131 LSB/(°/s) at ±250 °/s, halved per range step. */
		s64 gyro = div_s64((s64)record[4 + axis] * 131, 1000 << gyro_range);

		put_be16(&data[2 * axis], saturate(accel));
		put_be16(&data[8 + 2 * axis], saturate(gyro));
	}
	/* TEMP_OUT = (T − 36.53 °C) × 340 LSB/°C. */
	put_be16(&data[6], saturate(div_s64(((s64)record[3] - 36530) * 340, 1000)));
}

static void fifo_push(u8 byte)
{
	if (sim.fifo_count == FIFO_SIZE) {
		/* Full: the oldest byte gives way, whatever record it belonged to. */
		sim.fifo_head = (sim.fifo_head + 1) % FIFO_SIZE;
		sim.fifo_count--;
		sim.regs[REG_INT_STATUS] |= INT_FIFO_OFLOW;
	}
	sim.fifo[(sim.fifo_head + sim.fifo_count) % FIFO_SIZE] = byte;
	sim.fifo_count++;
}

static u8 fifo_pop(void)
{
	if (sim.fifo_count == 0)
		return sim.last_fifo_byte;
	sim.last_fifo_byte = sim.fifo[sim.fifo_head];
	sim.fifo_head = (sim.fifo_head + 1) % FIFO_SIZE;
	sim.fifo_count--;
	return sim.last_fifo_byte;
}

/* One sample: the next record into the data registers and, when enabled, the FIFO. */
static void sim_sample(void)
{
	const s32 *record = NULL;
	u8 enabled = sim.regs[REG_FIFO_EN];
	const u8 *data = &sim.regs[REG_ACCEL_XOUT_H];
	int i;

	if (sim.profile_records > 0) {
		size_t index = min(sim.cursor, sim.profile_records - 1);

		record = &sim.profile[index * RECORD_WORDS];
		if (sim.cursor < sim.profile_records)
			sim.cursor++;
	}
	sim_measure(record);
	sim.regs[REG_INT_STATUS] |= INT_DATA_RDY;
	if (!(sim.regs[REG_USER_CTRL] & USER_FIFO_EN))
		return;
	/* Register order: accel, temperature, gyro x, y, z. */
	if (enabled & FIFO_ACCEL)
		for (i = 0; i < 6; i++)
			fifo_push(data[i]);
	if (enabled & FIFO_TEMP)
		for (i = 6; i < 8; i++)
			fifo_push(data[i]);
	for (i = 0; i < 3; i++)
		if (enabled & (FIFO_XG >> i)) {
			fifo_push(data[8 + 2 * i]);
			fifo_push(data[9 + 2 * i]);
		}
}

static enum hrtimer_restart sim_tick(struct hrtimer *timer)
{
	unsigned long flags;
	enum hrtimer_restart next = HRTIMER_NORESTART;

	spin_lock_irqsave(&sim.lock, flags);
	if (sim.sampling) {
		sim_sample();
		/* Deadlines stay on the grid; ticks missed under load are not made up. */
		hrtimer_forward_now(timer, ns_to_ktime(sim_period_ns()));
		next = HRTIMER_RESTART;
	}
	spin_unlock_irqrestore(&sim.lock, flags);
	return next;
}

/* Starts or stops the sample clock after a register write; call with the lock held. */
static void sim_update_clock(void)
{
	bool awake = !(sim.regs[REG_PWR_MGMT_1] & PWR_SLEEP);

	if (awake && !sim.sampling) {
		sim.sampling = true;
		hrtimer_start(&sim.timer, ns_to_ktime(sim_period_ns()), HRTIMER_MODE_REL);
	} else if (!awake) {
		/* The callback sees the flag and does not restart. */
		sim.sampling = false;
	}
}

static u8 sim_read(u8 reg)
{
	u8 value;

	switch (reg) {
	case REG_FIFO_COUNT_H:
		return (u8)(sim.fifo_count >> 8);
	case REG_FIFO_COUNT_L:
		return (u8)sim.fifo_count;
	case REG_FIFO_R_W:
		return fifo_pop();
	case REG_INT_STATUS:
		value = sim.regs[REG_INT_STATUS];
		sim.regs[REG_INT_STATUS] = 0;
		return value;
	default:
		return reg < sizeof(sim.regs) ? sim.regs[reg] : 0;
	}
}

static void sim_write(u8 reg, u8 value)
{
	switch (reg) {
	case REG_PWR_MGMT_1:
		if (value & PWR_DEVICE_RESET) {
			/* The reset completes at once here; the bit reads 0 afterwards. */
			sim_power_on_state();
		} else {
			sim.regs[reg] = value;
		}
		sim_update_clock();
		return;
	case REG_USER_CTRL:
		if (value & USER_FIFO_RESET) {
			sim.fifo_head = 0;
			sim.fifo_count = 0;
		}
		/* FIFO_RESET and SIG_COND_RESET clear themselves. */
		sim.regs[reg] = value & ~(USER_FIFO_RESET | USER_SIG_COND_RESET);
		return;
	case REG_FIFO_R_W:
		fifo_push(value);
		return;
	case REG_WHO_AM_I:
	case REG_INT_STATUS:
	case REG_FIFO_COUNT_H:
	case REG_FIFO_COUNT_L:
		return;
	default:
		if (reg >= REG_ACCEL_XOUT_H && reg <= REG_GYRO_ZOUT_L)
			return;
		if (reg < sizeof(sim.regs))
			sim.regs[reg] = value;
	}
}

/* The register after `reg` in a burst: FIFO_R_W stays put, the rest advance. */
static u8 next_register(u8 reg)
{
	return reg == REG_FIFO_R_W ? reg : (u8)(reg + 1);
}

static int sim_xfer(struct i2c_adapter *adapter, u16 address, unsigned short flags, char read_write,
		    u8 command, int size, union i2c_smbus_data *data)
{
	unsigned long irq_flags;
	int i, result = 0;
	u8 reg = command;

	if (address != SIM_ADDRESS)
		return -ENXIO;
	spin_lock_irqsave(&sim.lock, irq_flags);
	switch (size) {
	case I2C_SMBUS_QUICK:
		break;
	case I2C_SMBUS_BYTE_DATA:
		if (read_write == I2C_SMBUS_READ)
			data->byte = sim_read(reg);
		else
			sim_write(reg, data->byte);
		break;
	case I2C_SMBUS_WORD_DATA:
		/* The sensor's registers are big-endian; SMBus words are sent low byte first. */
		if (read_write == I2C_SMBUS_READ) {
			u8 low = sim_read(reg);

			data->word = low | (sim_read(next_register(reg)) << 8);
		} else {
			sim_write(reg, data->word & 0xFF);
			sim_write(next_register(reg), data->word >> 8);
		}
		break;
	case I2C_SMBUS_I2C_BLOCK_DATA:
		if (data->block[0] > I2C_SMBUS_BLOCK_MAX) {
			result = -EINVAL;
			break;
		}
		for (i = 1; i <= data->block[0]; i++) {
			if (read_write == I2C_SMBUS_READ)
				data->block[i] = sim_read(reg);
			else
				sim_write(reg, data->block[i]);
			reg = next_register(reg);
		}
		break;
	default:
		result = -EOPNOTSUPP;
	}
	spin_unlock_irqrestore(&sim.lock, irq_flags);
	return result;
}

static u32 sim_functionality(struct i2c_adapter *adapter)
{
	return I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE_DATA | I2C_FUNC_SMBUS_WORD_DATA |
	       I2C_FUNC_SMBUS_I2C_BLOCK;
}

static const struct i2c_algorithm sim_algorithm = {
	.smbus_xfer = sim_xfer,
	.functionality = sim_functionality,
};

static struct i2c_adapter sim_adapter = {
	.owner = THIS_MODULE,
	.class = I2C_CLASS_HWMON,
	.algo = &sim_algorithm,
	.name = "MPU-6050 simulator",
};

static int profile_open(struct inode *inode, struct file *file)
{
	if (!(file->f_mode & FMODE_WRITE))
		return -EINVAL;
	if (test_and_set_bit(0, &sim.uploading))
		return -EBUSY;
	sim.upload_length = 0;
	return 0;
}

static ssize_t profile_write(struct file *file, const char __user *buffer, size_t count, loff_t *position)
{
	if (*position != sim.upload_length)
		return -ESPIPE;
	if (count > MAX_PROFILE_BYTES - sim.upload_length)
		return -EFBIG;
	if (copy_from_user(sim.upload + sim.upload_length, buffer, count))
		return -EFAULT;
	sim.upload_length += count;
	*position += count;
	return count;
}

/* Publishes what was written as the new profile, from its first record on. */
static int profile_release(struct inode *inode, struct file *file)
{
	size_t records = sim.upload_length / RECORD_BYTES;
	s32 *profile = NULL, *old;
	unsigned long flags;
	size_t i;

	if (records > 0) {
		profile = kvmalloc_array(records * RECORD_WORDS, sizeof(s32), GFP_KERNEL);
		if (!profile) {
			clear_bit(0, &sim.uploading);
			return -ENOMEM;
		}
		for (i = 0; i < records * RECORD_WORDS; i++)
			profile[i] = (s32)le32_to_cpup((const __le32 *)(sim.upload + 4 * i));
	}
	spin_lock_irqsave(&sim.lock, flags);
	old = sim.profile;
	sim.profile = profile;
	sim.profile_records = records;
	sim.cursor = 0;
	spin_unlock_irqrestore(&sim.lock, flags);
	kvfree(old);
	clear_bit(0, &sim.uploading);
	return 0;
}

static const struct file_operations profile_operations = {
	.owner = THIS_MODULE,
	.open = profile_open,
	.write = profile_write,
	.release = profile_release,
};

/* How many records have been played since the profile was written or the device reset. */
static int played_get(void *data, u64 *value)
{
	unsigned long flags;

	spin_lock_irqsave(&sim.lock, flags);
	*value = sim.cursor;
	spin_unlock_irqrestore(&sim.lock, flags);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(played_operations, played_get, NULL, "%llu\n");

static int __init sim_init(void)
{
	int result;

	spin_lock_init(&sim.lock);
	sim_power_on_state();
	hrtimer_init(&sim.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	sim.timer.function = sim_tick;
	sim.upload = vmalloc(MAX_PROFILE_BYTES);
	if (!sim.upload)
		return -ENOMEM;
	result = i2c_add_adapter(&sim_adapter);
	if (result) {
		vfree(sim.upload);
		return result;
	}
	debug_dir = debugfs_create_dir("mpu6050-sim", NULL);
	debugfs_create_file("profile", 0200, debug_dir, NULL, &profile_operations);
	debugfs_create_file_unsafe("played", 0400, debug_dir, NULL, &played_operations);
	return 0;
}

static void __exit sim_exit(void)
{
	unsigned long flags;

	debugfs_remove_recursive(debug_dir);
	i2c_del_adapter(&sim_adapter);
	spin_lock_irqsave(&sim.lock, flags);
	sim.sampling = false;
	spin_unlock_irqrestore(&sim.lock, flags);
	hrtimer_cancel(&sim.timer);
	kvfree(sim.profile);
	vfree(sim.upload);
}

module_init(sim_init);
module_exit(sim_exit);

MODULE_DESCRIPTION("An I2C adapter with a simulated MPU-6050 and its FIFO, for testing");
MODULE_LICENSE("GPL");
