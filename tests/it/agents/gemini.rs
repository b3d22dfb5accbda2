//! gemini: to come.
