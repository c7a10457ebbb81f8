/* SPDX-License-Identifier: MIT */
/*
 * The tracing definitions of the WPP sample, as a Windows driver or
 * service writes them: one control GUID with two flags, a function with a
 * level and a flag, an enum shown by name, and TRACE_RETURN, which traces
 * a failed status only (its PRE and POST hooks).
 */
#ifndef TRACESAMPLE_TRACE_H
#define TRACESAMPLE_TRACE_H

#define WPP_CONTROL_GUIDS						\
	WPP_DEFINE_CONTROL_GUID(SampleCtlGuid,				\
		(6f8b0d3a, 52c4, 4e1f, 9a37, 1c2d3e4f5a6b),		\
		WPP_DEFINE_BIT(FLAG_ONE)				\
		WPP_DEFINE_BIT(FLAG_TWO))

/*
 * DoTraceLevelMessage(LEVEL, FLAGS, MSG, ...) (etw wpp
 * -func:DoTraceLevelMessage(LEVEL,FLAGS,MSG,...)): both the flag and the
 * level must be enabled.
 */
#define WPP_LEVEL_FLAGS_LOGGER(level, flags) WPP_LEVEL_LOGGER(flags)
#define WPP_LEVEL_FLAGS_ENABLED(level, flags)				\
	(WPP_LEVEL_ENABLED(flags) && WPP_CONTROL(WPP_BIT_ ## flags).Level >= level)

typedef enum _MachineState {
	Offline = 2,
	Online = 1,
	Failed = 0xFF000001,
	Stalled = 0xFF000002
} MachineState;

// begin_wpp config
// CUSTOM_TYPE(state, ItemEnum(_MachineState));
// end_wpp

/*
 * TRACE_RETURN(Status): "Function Return=<status>" under FLAG_ONE, only
 * when Status is not STATUS_SUCCESS.
 */
// begin_wpp config
// USEPREFIX (TRACE_RETURN, "%!STDPREFIX!");
// FUNC TRACE_RETURN{FLAG=FLAG_ONE}(EXP);
// USESUFFIX (TRACE_RETURN, "Function Return=%!STATUS!", EXP);
// end_wpp
#define WPP_FLAG_EXP_PRE(FLAGS, HR) { if ((HR) != STATUS_SUCCESS) {
#define WPP_FLAG_EXP_POST(FLAGS, HR) ; } }
#define WPP_FLAG_EXP_ENABLED(FLAGS, HR) WPP_FLAG_ENABLED(FLAGS)
#define WPP_FLAG_EXP_LOGGER(FLAGS, HR) WPP_FLAG_LOGGER(FLAGS)

#ifndef STATUS_SUCCESS
#define STATUS_SUCCESS ((LONG)0x00000000L)
#endif
#define STATUS_DEVICE_POWERED_OFF ((LONG)0x8000000FL)

void SampleStart(void);
void SampleRun(int iterations);
void SampleStop(void);

#endif /* TRACESAMPLE_TRACE_H */
