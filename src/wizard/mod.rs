//! The guided wizard: welcome, symptoms, pick a disk, inspect, test, answer, save.
