// SPDX-License-Identifier: GPL-2.0
/*
 * What MSVC accepts and g++ calls permissive, as krabsetw writes it:
 * with libetw-windows++'s flags it compiles (-fsyntax-only, -Wall
 * -Wextra; g++ warns and, with -Werror, refuses), without them it must
 * not.
 */
#define UNICODE
#define _UNICODE

#include <windows.h>
#include <functional>
#include <string>

namespace app {
struct key {
	GUID provider;
	int id;
};
struct locator {
	int cached;
};
struct context {
	/* A member named as its type ("changes meaning" to g++). */
	const locator locator;
};
}

namespace std {
/* An explicit specialization named with std:: inside namespace std. */
template <> struct std::hash<app::key> {
	size_t operator()(const app::key &k) const { return (size_t)k.id ^ k.provider.Data1; }
};
}

size_t key_hash(const app::key &k);
size_t key_hash(const app::key &k)
{
	app::context c{ { 2 } };

	return std::hash<app::key>()(k) + (size_t)c.locator.cached;
}
