//! `campus ui` over real HTTP with real agents (one test binary): the AG-UI stream, its
//! bounds, bad input and the local guard, and forms through the page's server.

mod bounds;
mod forms;
mod input;
mod stream;
