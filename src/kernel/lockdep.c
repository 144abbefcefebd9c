// SPDX-License-Identifier: GPL-2.0
/* Lock usage tracking: lockdep's irq-state checks, reported as lockdep.irq. */
#include "lockdep.h"

#include <pthread.h>

#include "irqflags.h"
#include "report.h"

#define MAX_CLASSES 64

static struct lock_class_key *classes[MAX_CLASSES];
static int nr_classes;
static pthread_mutex_t classes_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const usage_names[4] = {
	"IN-HARDIRQ-W", "IN-SOFTIRQ-W", "HARDIRQ-ON-W", "SOFTIRQ-ON-W",
};

static int bit_index(int bit)
{
	return __builtin_ctz(bit);
}

static void remember_class(struct lock_class_key *key)
{
	int i;

	pthread_mutex_lock(&classes_lock);
	for (i = 0; i < nr_classes; i++)
		if (classes[i] == key)
			goto out;
	if (nr_classes < MAX_CLASSES)
		classes[nr_classes++] = key;
out:
	pthread_mutex_unlock(&classes_lock);
}

static void mark_usage(struct lock_class_key *key, int bit, int conflict,
		       const char *where)
{
	int old = __atomic_fetch_or(&key->usage, bit, __ATOMIC_SEQ_CST);

	if (!old)
		remember_class(key);
	if (!(old & bit))
		__atomic_store_n(&key->first_usage[bit_index(bit)], where,
				 __ATOMIC_RELAXED);
	if (old & conflict) {
		const char *then = __atomic_load_n(
			&key->first_usage[bit_index(conflict)],
			__ATOMIC_RELAXED);

		mlf_fail_simple("lockdep.irq",
				"inconsistent lock state: %s taken {%s} in %s "
				"but earlier {%s} in %s",
				key->name, usage_names[bit_index(bit)], where,
				usage_names[bit_index(conflict)],
				then ? then : "?");
	}
}

void lockdep_acquire(struct lock_class_key *key, const char *where)
{
	if (in_hardirq())
		mark_usage(key, LOCK_USED_IN_HARDIRQ, LOCK_ENABLED_HARDIRQ,
			   where);
	else if (!irqs_disabled())
		mark_usage(key, LOCK_ENABLED_HARDIRQ, LOCK_USED_IN_HARDIRQ,
			   where);

	if (in_softirq())
		mark_usage(key, LOCK_USED_IN_SOFTIRQ, LOCK_ENABLED_SOFTIRQ,
			   where);
	else if (!irqs_disabled())
		mark_usage(key, LOCK_ENABLED_SOFTIRQ, LOCK_USED_IN_SOFTIRQ,
			   where);
}

void lockdep_reset(void)
{
	int i;

	pthread_mutex_lock(&classes_lock);
	for (i = 0; i < nr_classes; i++) {
		__atomic_store_n(&classes[i]->usage, 0, __ATOMIC_SEQ_CST);
		classes[i]->first_usage[0] = classes[i]->first_usage[1] = NULL;
		classes[i]->first_usage[2] = classes[i]->first_usage[3] = NULL;
	}
	nr_classes = 0;
	pthread_mutex_unlock(&classes_lock);
}
