/* A stand-in for Windows 10's bcryptprimitives.dll, for running our .exe files under Wine 8.0 only.
 *
 * Rust's standard library on Windows takes its random numbers (HashMap keys) from ProcessPrng in
 * bcryptprimitives.dll. Every Windows since 10 has it; Wine 8.0 does not, and a program importing it
 * does not even start there. This DLL gives ProcessPrng over advapi32's SystemFunction036
 * (RtlGenRandom), which Wine has. scripts/wine-run.sh builds it with mingw-w64 into the Wine prefix's
 * system32; the .exe files we ship are unchanged and never carry it. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* SystemFunction036 takes a 32-bit length; ProcessPrng a pointer-sized one. */
    while (length > 0) {
        ULONG chunk = length > 0x7fffffffu ? 0x7fffffffu : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
