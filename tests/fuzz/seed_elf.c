/* The fuzz_elf target's seed: a sound shared object to mutate from. */
int cudastub_fuzz_seed(int x);

int cudastub_fuzz_seed(int x)
{
	return x + 1;
}
