// An allocator that can be armed to fail: the N-th allocation made by the
// arming thread from now on returns NULL (malloc, calloc, realloc) or
// throws std::bad_alloc (operator new), once or for every allocation from
// the N-th on. The test binary that links fail_alloc.cc gets it for all
// allocations: ordinary builds replace malloc itself (so operator new,
// which calls malloc, fails too); sanitizer builds, whose runtime owns
// malloc, replace operator new and delete only.
#pragma once

namespace basalt::apitest {

// Arms the allocator: allocation number n (1-based) of this thread fails;
// with `persistent`, every later one as well.
void ArmAllocFailure(long n, bool persistent);
// Disarms; returns whether an allocation was failed since arming.
bool DisarmAllocFailure();
// Allocations this thread made since the last arming.
long AllocationsSinceArmed();
// Whether malloc-family calls can fail (ordinary builds), not only new.
bool MallocCanFail();
// Blocks allocated and not yet freed, over all threads (malloc-family
// blocks in ordinary builds, operator new blocks in sanitizer builds): the
// difference across a piece of work that frees all it allocates is 0.
long LiveAllocations();

}  // namespace basalt::apitest
