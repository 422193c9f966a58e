// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel_pagelock: a test module for kmodel's killed-locker finding.
 *
 * A debugfs interface (/sys/kernel/debug/kmodel_pagelock/) that takes and
 * releases the page lock of page 0 of a named file's page cache, from the
 * task that writes the command, and a delay injector: a kprobe on the entry
 * of one function (module parameter delay_fn, default finish_wait) that
 * busy-waits delay_ms milliseconds, only in the task designated by
 * "delay PID MS", and only while that task has a fatal signal pending.
 *
 * Commands, written to ctl (one per write):
 *   target SLOT PATH   take a reference on page 0 of PATH (must be cached)
 *   lock SLOT          folio_lock(): __folio_lock() unless the trylock works
 *   lock_killable SLOT __folio_lock_killable() (it tries the lock first)
 *   unlock SLOT        folio_unlock()
 *   cycle SLOT         folio_lock(), then folio_unlock(): a kernel caller
 *                      that takes the lock, does its work and drops it
 *   cycle_killable SLOT __folio_lock_killable(), then folio_unlock() if it
 *                      returned 0 (the caller owns the lock and must drop it
 *                      before it returns to user space and dies)
 *   delay PID MS       arm the delay for task PID (PID 0: off)
 * Every command logs one "kmodel_pagelock:" line to the kernel log with the
 * pid, the return value and the page's PG_locked and PG_waiters afterwards;
 * the write returns the command's return value (or the length written).
 * Reading status prints the delay state and one line per slot.
 *
 * The kernel's own code is not changed: this only calls the exported page
 * lock functions and adds a kprobe.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/kprobes.h>
#include <linux/delay.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/seq_file.h>
#include <linux/atomic.h>

#define NSLOTS 64

static char *delay_fn = "finish_wait";
module_param(delay_fn, charp, 0444);
MODULE_PARM_DESC(delay_fn, "function whose entry gets the delay (default finish_wait)");

static struct folio *slots[NSLOTS];
static DEFINE_MUTEX(slots_lock);
static struct dentry *dir;

static atomic_t delay_pid = ATOMIC_INIT(0);
static atomic_t delay_ms = ATOMIC_INIT(0);
static atomic_t delay_hits = ATOMIC_INIT(0);	/* delays done */
static atomic_t in_delay = ATOMIC_INIT(0);	/* 1 while delaying */

static int delay_pre(struct kprobe *p, struct pt_regs *regs)
{
	int ms;

	if (current->pid != atomic_read(&delay_pid) ||
	    !fatal_signal_pending(current))
		return 0;
	ms = atomic_read(&delay_ms);
	if (ms <= 0)
		return 0;
	/* One delay per arming: the task may pass here again on its way out. */
	atomic_set(&delay_pid, 0);
	atomic_set(&in_delay, 1);
	/* kprobe handlers run with preemption off: busy-wait in 1 ms steps. */
	while (ms-- > 0)
		mdelay(1);
	atomic_set(&in_delay, 0);
	atomic_inc(&delay_hits);
	return 0;
}

static struct kprobe kp = { .pre_handler = delay_pre };

static void report(const char *op, int slot, struct folio *folio, long ret)
{
	pr_info("kmodel_pagelock: pid %d %s slot %d ret=%ld locked=%d waiters=%d\n",
		current->pid, op, slot, ret, folio_test_locked(folio),
		folio_test_waiters(folio));
}

static long do_target(int slot, const char *path)
{
	struct file *f;
	struct folio *folio;

	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	folio = filemap_get_folio(f->f_mapping, 0);
	filp_close(f, NULL);
	if (IS_ERR_OR_NULL(folio))
		return -ENOENT;
	mutex_lock(&slots_lock);
	if (slots[slot])
		folio_put(slots[slot]);
	slots[slot] = folio;
	mutex_unlock(&slots_lock);
	report("target", slot, folio, 0);
	return 0;
}

static struct folio *get_slot(int slot)
{
	struct folio *folio;

	mutex_lock(&slots_lock);
	folio = slots[slot];
	if (folio)
		folio_get(folio);
	mutex_unlock(&slots_lock);
	return folio;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char buf[256], arg[200];
	struct folio *folio;
	int slot, a, b;
	long ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';

	if (sscanf(buf, "delay %d %d", &a, &b) == 2) {
		atomic_set(&delay_ms, b);
		atomic_set(&delay_pid, a);
		pr_info("kmodel_pagelock: delay pid %d %d ms at %s\n", a, b,
			delay_fn);
		return len;
	}
	if (sscanf(buf, "target %d %199s", &slot, arg) == 2) {
		if (slot < 0 || slot >= NSLOTS)
			return -EINVAL;
		ret = do_target(slot, arg);
		return ret ? ret : len;
	}
	if (sscanf(buf, "%199s %d", arg, &slot) != 2 || slot < 0 ||
	    slot >= NSLOTS)
		return -EINVAL;
	folio = get_slot(slot);
	if (!folio)
		return -ENOENT;
	if (!strcmp(arg, "lock") || !strcmp(arg, "cycle")) {
		pr_info("kmodel_pagelock: pid %d %s slot %d: calling folio_lock\n",
			current->pid, arg, slot);
		if (!folio_trylock(folio))
			__folio_lock(folio);
		ret = 0;
		if (arg[0] == 'c') {
			report("cycle: folio_lock", slot, folio, ret);
			folio_unlock(folio);
		}
	} else if (!strcmp(arg, "lock_killable") ||
		   !strcmp(arg, "cycle_killable")) {
		pr_info("kmodel_pagelock: pid %d %s slot %d: calling __folio_lock_killable\n",
			current->pid, arg, slot);
		ret = __folio_lock_killable(folio);
		if (arg[0] == 'c') {
			report("cycle_killable: __folio_lock_killable", slot,
			       folio, ret);
			if (!ret)
				folio_unlock(folio);
		}
	} else if (!strcmp(arg, "unlock")) {
		if (!folio_test_locked(folio))
			ret = -EPERM;
		else {
			folio_unlock(folio);
			ret = 0;
		}
	} else {
		folio_put(folio);
		return -EINVAL;
	}
	report(arg, slot, folio, ret);
	folio_put(folio);
	return ret ? ret : len;
}

static int status_show(struct seq_file *m, void *v)
{
	int i;

	seq_printf(m, "delay_fn=%s delay_pid=%d delay_ms=%d in_delay=%d delay_hits=%d\n",
		   delay_fn, atomic_read(&delay_pid), atomic_read(&delay_ms),
		   atomic_read(&in_delay), atomic_read(&delay_hits));
	mutex_lock(&slots_lock);
	for (i = 0; i < NSLOTS; i++)
		if (slots[i])
			seq_printf(m, "slot %d locked=%d waiters=%d\n", i,
				   folio_test_locked(slots[i]),
				   folio_test_waiters(slots[i]));
	mutex_unlock(&slots_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(status);

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
	.llseek = no_llseek,
};

static int __init kmpl_init(void)
{
	int ret;

	kp.symbol_name = delay_fn;
	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("kmodel_pagelock: register_kprobe(%s) = %d\n", delay_fn, ret);
		return ret;
	}
	dir = debugfs_create_dir("kmodel_pagelock", NULL);
	debugfs_create_file("ctl", 0200, dir, NULL, &ctl_fops);
	debugfs_create_file("status", 0444, dir, NULL, &status_fops);
	pr_info("kmodel_pagelock: loaded, kprobe on %s at %px\n", delay_fn, kp.addr);
	return 0;
}

static void __exit kmpl_exit(void)
{
	int i;

	debugfs_remove_recursive(dir);
	unregister_kprobe(&kp);
	for (i = 0; i < NSLOTS; i++)
		if (slots[i])
			folio_put(slots[i]);
}

module_init(kmpl_init);
module_exit(kmpl_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kmodel: page lock test interface and delay injector");
