import { defineChoices } from 'patchbay';

// NetBox 4.4's dcim choice sets: device types, devices and virtual device contexts.

export const SubdeviceRole = defineChoices([
  ['parent', 'Parent'],
  ['child', 'Child'],
], { name: 'SubdeviceRoleEnum', prefix: 'role' });

export const DeviceFace = defineChoices([
  ['front', 'Front'],
  ['rear', 'Rear'],
]);

export const DeviceStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['inventory', 'Inventory'],
  ['decommissioning', 'Decommissioning'],
]);

export const DeviceAirflow = defineChoices([
  ['front-to-rear', 'Front to rear'],
  ['rear-to-front', 'Rear to front'],
  ['left-to-right', 'Left to right'],
  ['right-to-left', 'Right to left'],
  ['side-to-rear', 'Side to rear'],
  ['rear-to-side', 'Rear to side'],
  ['bottom-to-top', 'Bottom to top'],
  ['top-to-bottom', 'Top to bottom'],
  ['passive', 'Passive'],
  ['mixed', 'Mixed'],
], { name: 'DeviceAirflowEnum', prefix: 'airflow' });

export const VirtualDeviceContextStatus = defineChoices([
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['offline', 'Offline'],
]);
