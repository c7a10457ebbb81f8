# SPDX-License-Identifier: MIT
#
# make rules that run etw wpp before the compiler.  Set, then include:
#
#   WPP_SOURCES := driver.c queue.c      the traced sources
#   WPP_FLAGS   := -scan:trace.h -func:DoTraceLevelMessage(LEVEL,FLAGS,MSG,...)
#   WPP_ODIR    := wpp                   where the .tmh files go (default)
#   WPP_TMFDIR  := tmf                   where the .tmf files go (default:
#                                        WPP_ODIR)
#   ETW_WPP     := etw wpp               the preprocessor (default)
#   include $(shell pkg-config --variable=wppdir libetw)/wpp.mk
#
# Each source's object (its name with .o) then depends on its .tmh, which
# is made again when the source or WPP_DEPS change, and CPPFLAGS gets
# -I$(WPP_ODIR) so that #include "source.tmh" finds it.

ETW_WPP		?= etw wpp
WPP_ODIR	?= wpp
WPP_TMFDIR	?= $(WPP_ODIR)

define etw_wpp_rule
$(WPP_ODIR)/$(basename $(notdir $(1))).tmh: $(1) $(WPP_DEPS)
	@mkdir -p $(WPP_ODIR) $(WPP_TMFDIR)
	$(ETW_WPP) -odir:$(WPP_ODIR) -tmfdir:$(WPP_TMFDIR) $$(WPP_FLAGS) $(1)

$(basename $(1)).o: $(WPP_ODIR)/$(basename $(notdir $(1))).tmh
endef

$(foreach s,$(WPP_SOURCES),$(eval $(call etw_wpp_rule,$(s))))

CPPFLAGS	+= -I$(WPP_ODIR)
