// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim target's byte codec and per-op printer (reclaim_codec.h).
 * Decode and encode must stay each other's mirror; ctest
 * trace/selftest/reclaim and trace/roundtrip/reclaim hold them to it.
 */
#include "reclaim_codec.h"

#include <string.h>

struct reader {
	const uint8_t *p;
	size_t left;
};

static uint8_t next(struct reader *r)
{
	if (!r->left)
		return 0;
	r->left--;
	return *r->p++;
}

const u8 mlf_reclaim_swappiness_values[] = { 0, 1, 60, 100, 200 };

size_t mlf_reclaim_decode(const uint8_t *data, size_t size,
			  struct mlf_reclaim_header *h,
			  struct mlf_reclaim_op *ops, size_t max_ops)
{
	struct reader r = { data, size };
	size_t n = 0;
	int i;

	h->nr_nodes = 1 + next(&r) % MLF_RECLAIM_MAX_NODES;
	h->pool_size = 1 + next(&r) % MLF_RECLAIM_MAX_POOL;
	while (r.left && n < max_ops) {
		struct mlf_reclaim_op *op = &ops[n++];
		u8 flags;

		memset(op, 0, sizeof(*op));
		op->kind = next(&r) % RECLAIM_OP_NR;
		switch (op->kind) {
		case RECLAIM_OP_ONLINE:
			op->memcg = next(&r) % h->pool_size;
			op->nr_draws = 1;
			op->draws[0] = next(&r);
			op->parent = next(&r) % (h->pool_size + 1);
			break;
		case RECLAIM_OP_OFFLINE:
		case RECLAIM_OP_RELEASE:
		case RECLAIM_OP_WBDONE:
			op->memcg = next(&r) % h->pool_size;
			break;
		case RECLAIM_OP_ADD:
		case RECLAIM_OP_REFAULT:
			op->memcg = next(&r) % h->pool_size;
			op->node = next(&r) % h->nr_nodes;
			flags = next(&r);
			op->type = flags & 1;
			op->zone = (flags >> 1) & 1;
			op->dirty = (flags >> 2) & 1;
			op->writeback = (flags >> 3) & 1;
			op->referenced = (flags >> 4) & 1;
			op->order = (flags >> 5) & 3;
			op->count = 1 + next(&r) % 16;
			break;
		case RECLAIM_OP_TOUCH:
			op->folio = next(&r);
			op->folio |= next(&r) << 8;
			op->folio %= MLF_RECLAIM_MAX_FOLIOS;
			break;
		case RECLAIM_OP_AGE:
			op->memcg = next(&r) % h->pool_size;
			op->node = next(&r) % h->nr_nodes;
			break;
		case RECLAIM_OP_PROTECT:
			op->memcg = next(&r) % h->pool_size;
			op->min = next(&r);
			op->low = next(&r);
			break;
		case RECLAIM_OP_SWAPPINESS:
			op->memcg = next(&r) % h->pool_size;
			op->swappiness = mlf_reclaim_swappiness_values
				[next(&r) % MLF_RECLAIM_NR_SWAPPINESS];
			break;
		case RECLAIM_OP_RECLAIM:
			op->node = next(&r) % h->nr_nodes;
			op->target = next(&r);
			op->priority = next(&r) % (DEF_PRIORITY + 1);
			flags = next(&r);
			op->kswapd = flags & 1;
			op->dying = (flags >> 1) & 1;
			op->order = (flags >> 2) & 3;
			op->zones = ((flags >> 4) & 3) % (MAX_NR_ZONES + 1);
			op->others = (flags >> 6) & 3;
			op->nr_draws = next(&r) % (MLF_RECLAIM_MAX_DRAWS + 1);
			for (i = 0; i < op->nr_draws; i++)
				op->draws[i] = next(&r);
			break;
		case RECLAIM_OP_PARK:
			op->memcg = next(&r) % h->pool_size;
			op->node = next(&r) % h->nr_nodes;
			op->kswapd = next(&r) & 1;
			op->nr_draws = 1;
			op->draws[0] = next(&r);
			break;
		case RECLAIM_OP_UNPARK:
			op->slot = next(&r) % MLF_RECLAIM_MAX_PARKED;
			break;
		case RECLAIM_OP_SHADOW:
			op->memcg = next(&r) % h->pool_size;
			op->node = next(&r) % h->nr_nodes;
			op->nodes = next(&r);
			break;
		case RECLAIM_OP_SOFT:
		case RECLAIM_OP_FREE:
			op->memcg = next(&r) % h->pool_size;
			op->node = next(&r) % h->nr_nodes;
			break;
		case RECLAIM_OP_ZONE:
			flags = next(&r);
			op->node = (flags & 1) % h->nr_nodes;
			op->zone = (flags >> 1) & 1;
			op->zone_managed = next(&r);
			op->zone_min = next(&r);
			op->zone_gap = next(&r);
			op->zone_boost = next(&r);
			op->zone_reserve = next(&r);
			op->zone_free = next(&r);
			break;
		case RECLAIM_OP_SLAB:
			op->memcg = next(&r) % h->pool_size;
			op->node = next(&r) % h->nr_nodes;
			op->shrinker = next(&r) % MLF_NR_SHRINKERS;
			op->objects = 1 + next(&r);
			break;
		case RECLAIM_OP_SYSCTL:
			flags = next(&r);
			op->recursiveprot = flags & 1;
			op->tiering = (flags >> 1) & 1;
			break;
		}
	}
	return n;
}

size_t mlf_reclaim_encode_header(const struct mlf_reclaim_header *h,
				 uint8_t *out)
{
	out[0] = h->nr_nodes - 1;
	out[1] = h->pool_size - 1;
	return MLF_RECLAIM_HEADER_BYTES;
}

static u8 swappiness_index(u8 swappiness)
{
	u8 i;

	for (i = 0; i < MLF_RECLAIM_NR_SWAPPINESS; i++)
		if (mlf_reclaim_swappiness_values[i] == swappiness)
			return i;
	return 0;
}

size_t mlf_reclaim_encode_op(const struct mlf_reclaim_op *op, uint8_t *out)
{
	size_t n = 0;
	int i;

	out[n++] = op->kind;
	switch (op->kind) {
	case RECLAIM_OP_ONLINE:
		out[n++] = op->memcg;
		out[n++] = op->draws[0];
		out[n++] = op->parent;
		break;
	case RECLAIM_OP_OFFLINE:
	case RECLAIM_OP_RELEASE:
	case RECLAIM_OP_WBDONE:
		out[n++] = op->memcg;
		break;
	case RECLAIM_OP_ADD:
	case RECLAIM_OP_REFAULT:
		out[n++] = op->memcg;
		out[n++] = op->node;
		out[n++] = (op->type & 1) | (op->zone & 1) << 1 |
			   (op->dirty & 1) << 2 | (op->writeback & 1) << 3 |
			   (op->referenced & 1) << 4 | (op->order & 3) << 5;
		out[n++] = op->count - 1;
		break;
	case RECLAIM_OP_TOUCH:
		out[n++] = op->folio & 0xff;
		out[n++] = op->folio >> 8;
		break;
	case RECLAIM_OP_AGE:
		out[n++] = op->memcg;
		out[n++] = op->node;
		break;
	case RECLAIM_OP_PROTECT:
		out[n++] = op->memcg;
		out[n++] = op->min;
		out[n++] = op->low;
		break;
	case RECLAIM_OP_SWAPPINESS:
		out[n++] = op->memcg;
		out[n++] = swappiness_index(op->swappiness);
		break;
	case RECLAIM_OP_RECLAIM:
		out[n++] = op->node;
		out[n++] = op->target;
		out[n++] = op->priority;
		out[n++] = (op->kswapd & 1) | (op->dying & 1) << 1 |
			   (op->order & 3) << 2 | (op->zones & 3) << 4 |
			   (op->others & 3) << 6;
		out[n++] = op->nr_draws;
		for (i = 0; i < op->nr_draws; i++)
			out[n++] = op->draws[i];
		break;
	case RECLAIM_OP_PARK:
		out[n++] = op->memcg;
		out[n++] = op->node;
		out[n++] = op->kswapd & 1;
		out[n++] = op->draws[0];
		break;
	case RECLAIM_OP_UNPARK:
		out[n++] = op->slot;
		break;
	case RECLAIM_OP_SHADOW:
		out[n++] = op->memcg;
		out[n++] = op->node;
		out[n++] = op->nodes;
		break;
	case RECLAIM_OP_SOFT:
	case RECLAIM_OP_FREE:
		out[n++] = op->memcg;
		out[n++] = op->node;
		break;
	case RECLAIM_OP_ZONE:
		out[n++] = (op->node & 1) | (op->zone & 1) << 1;
		out[n++] = op->zone_managed;
		out[n++] = op->zone_min;
		out[n++] = op->zone_gap;
		out[n++] = op->zone_boost;
		out[n++] = op->zone_reserve;
		out[n++] = op->zone_free;
		break;
	case RECLAIM_OP_SLAB:
		out[n++] = op->memcg;
		out[n++] = op->node;
		out[n++] = op->shrinker;
		out[n++] = op->objects - 1;
		break;
	case RECLAIM_OP_SYSCTL:
		out[n++] = (op->recursiveprot & 1) | (op->tiering & 1) << 1;
		break;
	}
	return n;
}

size_t mlf_reclaim_encode(const struct mlf_reclaim_header *h,
			  const struct mlf_reclaim_op *ops, size_t n,
			  uint8_t *out)
{
	size_t len = mlf_reclaim_encode_header(h, out), i;

	for (i = 0; i < n; i++)
		len += mlf_reclaim_encode_op(&ops[i], out + len);
	return len;
}

bool mlf_reclaim_op_names_memcg(int kind)
{
	return kind != RECLAIM_OP_TOUCH && kind != RECLAIM_OP_RECLAIM &&
	       kind != RECLAIM_OP_UNPARK && kind != RECLAIM_OP_ZONE &&
	       kind != RECLAIM_OP_SYSCTL;
}

bool mlf_reclaim_op_equal(const struct mlf_reclaim_op *a,
			  const struct mlf_reclaim_op *b)
{
	return a->kind == b->kind && a->memcg == b->memcg &&
	       a->node == b->node && a->type == b->type && a->zone == b->zone &&
	       a->dirty == b->dirty && a->writeback == b->writeback &&
	       a->referenced == b->referenced && a->count == b->count &&
	       a->folio == b->folio && a->min == b->min && a->low == b->low &&
	       a->swappiness == b->swappiness && a->target == b->target &&
	       a->priority == b->priority && a->kswapd == b->kswapd &&
	       a->dying == b->dying && a->slot == b->slot &&
	       a->nodes == b->nodes && a->order == b->order &&
	       a->zones == b->zones && a->others == b->others &&
	       a->parent == b->parent && a->zone_managed == b->zone_managed &&
	       a->zone_min == b->zone_min && a->zone_gap == b->zone_gap &&
	       a->zone_boost == b->zone_boost &&
	       a->zone_reserve == b->zone_reserve &&
	       a->zone_free == b->zone_free && a->shrinker == b->shrinker &&
	       a->objects == b->objects &&
	       a->recursiveprot == b->recursiveprot &&
	       a->tiering == b->tiering && a->nr_draws == b->nr_draws &&
	       !memcmp(a->draws, b->draws, a->nr_draws);
}

void mlf_reclaim_print_header(FILE *out, const struct mlf_reclaim_header *h)
{
	fprintf(out, "nodes %d pool %d\n", h->nr_nodes, h->pool_size);
}

static const char *const type_name[] = { "anon", "file" };

void mlf_reclaim_print_op(FILE *out, const struct mlf_reclaim_op *op)
{
	int i;

	fprintf(out, "%s", mlf_reclaim_op_name(op->kind));
	switch (op->kind) {
	case RECLAIM_OP_ONLINE:
		/* the bin the draw picks; a draw of 8 or more stays raw */
		fprintf(out, " m%d %s=%d", op->memcg,
			op->draws[0] < MEMCG_NR_BINS ? "bin" : "draw",
			op->draws[0]);
		if (op->parent)
			fprintf(out, " parent=m%d", op->parent - 1);
		break;
	case RECLAIM_OP_OFFLINE:
	case RECLAIM_OP_RELEASE:
	case RECLAIM_OP_WBDONE:
		fprintf(out, " m%d", op->memcg);
		break;
	case RECLAIM_OP_ADD:
	case RECLAIM_OP_REFAULT:
		fprintf(out, " m%d n%d %s z%d%s%s%s x%d", op->memcg, op->node,
			type_name[op->type & 1], op->zone,
			op->dirty ? " dirty" : "",
			op->writeback ? " writeback" : "",
			op->referenced ? " referenced" : "", op->count);
		if (op->order)
			fprintf(out, " order=%d", op->order);
		break;
	case RECLAIM_OP_TOUCH:
		fprintf(out, " f%d", op->folio);
		break;
	case RECLAIM_OP_AGE:
		fprintf(out, " m%d n%d", op->memcg, op->node);
		break;
	case RECLAIM_OP_PROTECT:
		fprintf(out, " m%d min=%d low=%d", op->memcg, op->min, op->low);
		break;
	case RECLAIM_OP_SWAPPINESS:
		fprintf(out, " m%d %d", op->memcg, op->swappiness);
		break;
	case RECLAIM_OP_RECLAIM:
		fprintf(out, " n%d target=%d prio=%d%s%s", op->node, op->target,
			op->priority, op->kswapd ? " kswapd" : "",
			op->dying ? " dying" : "");
		if (op->order)
			fprintf(out, " order=%d", op->order);
		if (op->zones)
			fprintf(out, " maxzone=%d", op->zones - 1);
		if (op->others)
			fprintf(out, " others=%d", op->others);
		if (op->nr_draws) {
			fprintf(out, " draws=");
			for (i = 0; i < op->nr_draws; i++)
				fprintf(out, "%s%d", i ? "," : "", op->draws[i]);
		}
		break;
	case RECLAIM_OP_PARK:
		fprintf(out, " m%d n%d%s draw=%d", op->memcg, op->node,
			op->kswapd ? " kswapd" : "", op->draws[0]);
		break;
	case RECLAIM_OP_UNPARK:
		fprintf(out, " p%d", op->slot);
		break;
	case RECLAIM_OP_SHADOW:
		fprintf(out, " m%d n%d nodes=%d", op->memcg, op->node, op->nodes);
		break;
	case RECLAIM_OP_SOFT:
	case RECLAIM_OP_FREE:
		fprintf(out, " m%d n%d", op->memcg, op->node);
		break;
	case RECLAIM_OP_ZONE:
		fprintf(out, " n%d z%d managed=%d min=%d gap=%d boost=%d reserve=%d free=%d",
			op->node, op->zone, op->zone_managed, op->zone_min,
			op->zone_gap, op->zone_boost, op->zone_reserve,
			op->zone_free);
		break;
	case RECLAIM_OP_SLAB:
		fprintf(out, " m%d n%d s%d objects=%d", op->memcg, op->node,
			op->shrinker, op->objects);
		break;
	case RECLAIM_OP_SYSCTL:
		fprintf(out, " recursiveprot=%d tiering=%d", op->recursiveprot,
			op->tiering);
		break;
	}
}
