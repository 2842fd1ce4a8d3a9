export { WebhookReceiver as Receiver, type Received } from '../../testing/receiver.js';
