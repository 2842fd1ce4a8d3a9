import { defineChoices } from 'patchbay';

// NetBox 4.4's dcim choice sets: console ports and console server ports (and their templates).

export const ConsolePortType = defineChoices([
  // Serial
  ['de-9', 'DE-9'],
  ['db-25', 'DB-25'],
  ['rj-11', 'RJ-11'],
  ['rj-12', 'RJ-12'],
  ['rj-45', 'RJ-45'],
  ['mini-din-8', 'Mini-DIN 8'],
  // USB
  ['usb-a', 'USB Type A'],
  ['usb-b', 'USB Type B'],
  ['usb-c', 'USB Type C'],
  ['usb-mini-a', 'USB Mini A'],
  ['usb-mini-b', 'USB Mini B'],
  ['usb-micro-a', 'USB Micro A'],
  ['usb-micro-b', 'USB Micro B'],
  ['usb-micro-ab', 'USB Micro AB'],
  // Other
  ['other', 'Other'],
], { name: 'ConsolePortTypeEnum', prefix: 'type' });

export const ConsolePortSpeed = defineChoices([
  [1200, '1200 bps'],
  [2400, '2400 bps'],
  [4800, '4800 bps'],
  [9600, '9600 bps'],
  [19200, '19.2 kbps'],
  [38400, '38.4 kbps'],
  [57600, '57.6 kbps'],
  [115200, '115.2 kbps'],
], { name: 'ConsolePortSpeedEnum', prefix: 'speed' });
