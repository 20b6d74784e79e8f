// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef RAUDIO_CEXTTEXTCAT_SHIM_H
#define RAUDIO_CEXTTEXTCAT_SHIM_H
// libexttextcat (Debian libexttextcat-dev, LibreOffice's n-gram language guesser, with the fingerprints of
// libexttextcat-data): the language of content that declares none.
#include <textcat.h>
#endif
